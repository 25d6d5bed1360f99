import type {
  ScanEvent,
  ScanIdentity,
  ScanNumberLookup,
  ScanOutgoing,
  ScanPairingCode,
  ScanPresence,
  ScanReadKey,
  ScanSent,
  ScanSocket,
} from '../driver/scan-driver.port.js';
import { closePolicy, reconnectDelay } from './close-policy.js';
import { reason } from './scan-session-ends.js';
import { isPasskeyEvent, ScanSessionPasskey } from './scan-session-passkey.js';
import { ScanConflictError, ScanNotConnectedError } from './scan-sessions.port.js';
import { PAIRING_CODE_EXPIRED_ERROR, pairingCodeLostError, passkeyLostError } from './session-state.js';
import { withTimeout } from './waiters.js';

export type { RunnerContext } from './scan-session-ends.js';

export const ALREADY_LINKED = 'the number is already linked: a pairing code only links a number that is not (disconnect it first to link another)';
const PASSKEY_RUNNING = "WhatsApp's passkey check runs for this number: finish it, or stop the session (POST /api/chat/stop) to link another way";
const NO_REGISTRATION = 'WhatsApp did not offer this connection a registration in time, so no pairing code could be asked for; retry in a few seconds';
// Reconnect pace while Postgres (the failure count, the keys) is unreachable.
const STORE_RETRY_MS = 5_000;

/**
 * One workspace's socket in the process holding its lease: opens it, reacts to each close code
 * (close-policy.ts), reconnects with backoff, and hands data events to the inbox in order. Every
 * reconnect is a new socket (`generation`); events of a socket already left behind are ignored.
 */
export class ScanSessionRunner extends ScanSessionPasskey {
  private generation = 0;
  private opening = false;
  private lifecycle: Promise<void> = Promise.resolve();
  private data: Promise<void> = Promise.resolve();

  /**
   * Starts a linked session (start-up, takeover). Resolves once its first connection attempt has
   * an outcome (connected, closed or stopped) or after `waitMs`, so the sweep can bound how many
   * sessions connect at once; the session goes on (reconnects, backoff) either way.
   */
  resume(waitMs: number): Promise<void> {
    const outcome = this.outcomes.next(waitMs, undefined);
    void this.open(false).catch(() => undefined);
    return outcome;
  }

  /**
   * Starts or reconnects for `POST /api/chat/connect`, then waits (bounded) for a QR code or the
   * connection. Rejects with the reason when the session cannot start.
   */
  async connect(): Promise<void> {
    if (this.connected || this.qr !== null || this.pairing !== null || this.ceremony !== null) return;
    // Scanned, and the socket that logs in is on its way: nothing to start.
    if (this.paired !== null && (this.socket !== null || this.opening)) return;
    const settled = this.waiters.next(this.ctx.config.connectWaitMs, { kind: 'timeout' });
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    if (!this.socket && !this.opening) await this.open(true);
    const result = await settled;
    if (result.kind === 'stopped' && result.error) throw new Error(result.error);
  }

  /**
   * `POST /api/chat/pairing-code`: on a socket that registers (started here when there is none,
   * as connect starts one, and waited for until WhatsApp offered the registration), asks for a
   * code for `phone`. The phone entering it pairs the number as a scan would. Rejects with
   * `ScanConflictError` when the number is linked, or logs in instead.
   */
  async requestPairingCode(phone: string): Promise<ScanPairingCode> {
    if (this.connected || this.paired !== null) throw new ScanConflictError(ALREADY_LINKED);
    if (this.ceremony !== null) throw new ScanConflictError(PASSKEY_RUNNING);
    if (this.qr === null && this.pairing === null) await this.connect();
    if (this.connected || this.paired !== null) throw new ScanConflictError(ALREADY_LINKED);
    const socket = this.socket;
    if (!socket || this.finished || (this.qr === null && this.pairing === null)) throw new Error(NO_REGISTRATION);
    const pairing = await socket.requestPairingCode(phone);
    if (socket !== this.socket || this.finished) throw new Error('the connection closed while the pairing code was being asked for; retry');
    this.pairing = pairing;
    this.qr = null;
    this.qrExpiresAt = null;
    await this.ctx.state.change(this.ctx.workspaceId, () => this.writeLive());
    this.ctx.logger.log(`scan session ${this.ctx.workspaceId}: a pairing code was asked for; waiting for the phone to enter it`);
    return pairing;
  }

  /** `POST /api/chat/stop`: closes the socket and stops, keeping the link and its keys (until connect). */
  halt(): Promise<void> {
    const paired = this.paired;
    // Scanned but not logged in yet: the creds are whole, so the next connect logs in with them.
    return this.stop({ lastError: null, qrExpired: false, state: 'stopped', ...(paired ? { linked: true, jid: paired.jid || null } : {}) });
  }

  async send(jid: string, outgoing: ScanOutgoing): Promise<ScanSent> {
    return this.liveSocket().send(jid, outgoing);
  }

  async markRead(keys: readonly ScanReadKey[]): Promise<void> {
    await this.liveSocket().markRead(keys);
  }

  async presence(jid: string, state: ScanPresence): Promise<void> {
    await this.liveSocket().presence(jid, state);
  }

  async lookup(phones: readonly string[]): Promise<ScanNumberLookup[]> {
    return this.liveSocket().lookup(phones);
  }

  /** The socket, when it is logged in and online; else `ScanNotConnectedError`. */
  private liveSocket(): ScanSocket {
    if (!this.connected || !this.socket || this.finished) throw new ScanNotConnectedError();
    return this.socket;
  }

  /** Lease lost or process stopping: close the socket at once, write nothing (another worker owns the state). */
  /** Resolves once the data events handed to the inbox so far are committed (5 s at most). */
  async drained(): Promise<void> {
    await withTimeout(this.data, 5_000).catch(() => undefined);
  }

  async abandon(): Promise<void> {
    const socket = this.socket;
    this.finish();
    socket?.close();
    this.settle({ kind: 'stopped', error: 'the session moved to another worker' });
    await withTimeout(this.data, 5_000).catch(() => undefined);
  }

  private async open(fromUser: boolean): Promise<void> {
    if (this.finished) return;
    const generation = ++this.generation;
    const { workspaceId } = this.ctx;
    this.opening = true;
    try {
      // Starting (connecting, for a linked number): what the status says until the socket answers.
      await this.ctx.state
        .change(workspaceId, () => this.writeLive())
        .catch((error: unknown) => this.ctx.logger.warn(`scan session ${workspaceId}: state not written: ${reason(error)}`));
      if (this.finished || generation !== this.generation) return;
      const socket = await this.ctx.driver.open({
        workspaceId,
        auth: this.ctx.auth.forWorkspace(workspaceId),
        getMessage: (_chatJid, externalId) => this.ctx.messages.outbound(workspaceId, externalId),
        listener: (event, stored) => this.onEvent(generation, event, stored),
      });
      if (this.finished || generation !== this.generation) socket.close();
      else this.socket = socket;
    } catch (error) {
      if (this.finished || generation !== this.generation) return;
      const text = `the session could not be started: ${reason(error)}`;
      this.ctx.logger.error(`${text} (workspace ${workspaceId})`);
      this.outcome();
      if (fromUser) {
        await this.stop({ lastError: text });
        throw new Error(text, { cause: error });
      }
      await this.fail(text);
    } finally {
      this.opening = false;
    }
  }

  private onEvent(generation: number, event: ScanEvent, stored?: () => void): void {
    if (isLifecycle(event)) {
      if (generation !== this.generation || this.finished) return;
      this.lifecycle = this.lifecycle
        .then(() => (generation === this.generation && !this.finished ? this.onLifecycle(event) : undefined))
        .catch((error: unknown) => this.ctx.logger.error(`scan session ${this.ctx.workspaceId}: ${event.type} not handled: ${reason(error)}`));
      return;
    }
    // Data events go to the inbox in order, whatever happens to the socket afterwards. Once one is
    // committed, the channel may acknowledge its messages to WhatsApp; one that failed is not
    // acknowledged, and WhatsApp delivers it again on the next connection.
    this.data = this.data
      .then(async () => {
        await this.ctx.handler.handle(this.ctx.workspaceId, event);
        stored?.();
      })
      .catch((error: unknown) => this.ctx.logger.error(`scan session ${this.ctx.workspaceId}: ${event.type} event failed: ${reason(error)}`));
  }

  private async onLifecycle(event: LifecycleEvent): Promise<void> {
    const { workspaceId } = this.ctx;
    // Whatever happens next, this connection attempt has its outcome (a resume waits for it).
    this.outcome();
    if (event.type === 'qr') {
      // The driver shows no QR code after a pairing code was asked for, or during the passkey
      // check; one in flight is for nobody.
      if (this.pairing !== null || this.ceremony !== null) return;
      this.qr = event.code;
      this.qrExpiresAt = event.expiresAt ?? null;
      this.paired = null;
      await this.ctx.state.change(workspaceId, async () => {
        await this.writeLive();
        // A link to come starts a new history sync; no history can arrive before the scan.
        await this.ctx.sync.reset(workspaceId);
      });
      this.settle({ kind: 'qr' });
    } else if (event.type === 'paired') {
      await this.scanned(event.identity);
    } else if (event.type === 'open') {
      await this.opened(event.identity);
      this.settle({ kind: 'open' });
    } else if (isPasskeyEvent(event)) {
      await this.onPasskey(event);
    } else {
      await this.closed(event);
    }
  }

  /**
   * The phone scanned the code: it is no longer waiting, and the number shows as linked but not
   * connected until the channel's restart and the login are done (`opened`).
   */
  private async scanned(identity: ScanIdentity): Promise<void> {
    const { workspaceId } = this.ctx;
    const how = this.ceremony ? 'the passkey check passed' : this.pairing !== null ? 'the pairing code was entered' : 'the QR code was scanned';
    if (!this.ceremonyPaired()) return;
    this.qr = null;
    this.pairing = null;
    this.paired = identity;
    await this.ctx.state.change(workspaceId, () => this.writeLive());
    this.ctx.logger.log(`scan session ${workspaceId}: ${how} (${identity.jid || 'no jid yet'}); finishing the link`);
  }

  private async opened(identity: ScanIdentity): Promise<void> {
    const { workspaceId } = this.ctx;
    this.connected = true;
    this.qr = null;
    this.pairing = null;
    this.paired = null;
    const before = await this.ctx.rows.find(workspaceId);
    await this.ctx.state.change(workspaceId, async () => {
      await this.ctx.rows.update(workspaceId, {
        desired: 'running',
        linked: true,
        jid: identity.jid,
        failures: 0,
        lastError: null,
        qrExpired: false,
        state: 'connected',
      });
      await this.writeLive();
    });
    this.ctx.logger.log(`scan session ${workspaceId} connected as ${identity.jid}${before.linked ? '' : ' (newly linked)'}`);
  }

  private async closed(event: Extract<ScanEvent, { type: 'closed' }>): Promise<void> {
    const { workspaceId } = this.ctx;
    const { paired, pairing } = this;
    this.socket = null;
    this.connected = false;
    this.qr = null;
    this.qrExpiresAt = null;
    this.pairing = null;
    // A socket lost in the middle of the passkey check ends it: a new one would register afresh.
    if (this.ceremony && paired === null) return this.stop({ lastError: passkeyLostError(`${event.reason} (${event.code})`) });
    const policy = closePolicy(event);
    const log = `scan session ${workspaceId} closed with ${event.code} (${event.reason}): ${policy.action}`;
    // The 515 after pairing and a QR nobody scanned are normal steps; a lost connection and a
    // logout from the phone are worth a warning; only a stop for another reason is an error.
    const level = policy.action === 'reconnect-now' || policy.action === 'qr-expired' ? 'log' : policy.action === 'stop' ? 'error' : 'warn';
    this.ctx.logger[level](log);
    // The code the person holds belongs to this socket: a new one would show codes nobody watches.
    if (pairing !== null && paired === null && policy.action !== 'logged-out' && policy.action !== 'reconnect-now') {
      if (event.qrExpired) return this.stop({ lastError: PAIRING_CODE_EXPIRED_ERROR, state: 'stopped' });
      return this.stop({ lastError: policy.action === 'stop' ? policy.error : pairingCodeLostError(`${event.reason} (${event.code})`) });
    }
    switch (policy.action) {
      case 'reconnect-now':
        return this.open(false);
      case 'logged-out':
        return this.ends(this.forgetNow(policy.error));
      case 'qr-expired':
        return this.stop({ qrExpired: true, lastError: null });
      case 'stop':
        return this.stop({ lastError: policy.error });
      case 'backoff':
        // A number being linked starts over with new keys (the next socket registers afresh).
        if (paired === null) await this.dropUnfinishedLink();
        return this.fail(`${event.reason} (${event.code})`);
    }
  }

  /** A failed connection: retry after a growing delay, or stop once it failed too often in a row. */
  private async fail(text: string): Promise<void> {
    const { workspaceId, config } = this.ctx;
    const failures = await this.ctx.rows.addFailure(workspaceId).catch(() => null);
    if (failures !== null && failures >= config.maxFailures) {
      return this.stop({ lastError: `the connection failed ${failures} times in a row (last: ${text}); call POST /api/chat/connect to try again` });
    }
    if (this.finished) return;
    // Without the count (Postgres away) there is nothing to back off with. Each attempt then only
    // tries to read the keys (WhatsApp is contacted once they load), so a short, steady pace gets
    // the number back soon after Postgres returns.
    const delay =
      failures === null
        ? reconnectDelay(1, Math.min(config.reconnectMaxMs, STORE_RETRY_MS), config.reconnectMaxMs)
        : reconnectDelay(failures, config.reconnectBaseMs, config.reconnectMaxMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.open(false).catch(() => undefined);
    }, delay);
    // Reconnecting (still linking, when a scan happened: its restart or login failed for now).
    await this.ctx.state
      .change(workspaceId, () => this.writeLive())
      .catch((error: unknown) => this.ctx.logger.warn(`scan session ${workspaceId}: state not written: ${reason(error)}`));
  }
}

type LifecycleEvent = Extract<ScanEvent, { type: 'qr' | 'paired' | 'open' | 'closed' | 'passkey' | 'passkey-confirmation' | 'passkey-failed' }>;
const LIFECYCLE: ReadonlySet<ScanEvent['type']> = new Set(['qr', 'paired', 'open', 'closed', 'passkey', 'passkey-confirmation', 'passkey-failed']);
const isLifecycle = (event: ScanEvent): event is LifecycleEvent => LIFECYCLE.has(event.type);
