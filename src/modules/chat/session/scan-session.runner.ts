import type { Logger } from '@nestjs/common';
import type { ChatSessionConfig } from '../../../infra/config/app-config.js';
import type {
  ScanAuthStorageFactory,
  ScanDriver,
  ScanEvent,
  ScanIdentity,
  ScanOutgoing,
  ScanReadKey,
  ScanSent,
  ScanSocket,
} from '../driver/scan-driver.port.js';
import { closePolicy, reconnectDelay } from './close-policy.js';
import type { ScanMessageLookupRepository } from './scan-message-lookup.repository.js';
import type { ScanLiveStateStore } from './scan-live-state.store.js';
import type { ScanSessionPatch, ScanSessionRepository } from './scan-session.repository.js';
import { ScanNotConnectedError, type ScanEventHandler } from './scan-sessions.port.js';
import type { ScanStateService } from './scan-state.service.js';
import type { SyncProgressStore } from './sync-progress.store.js';
import { Waiters, withTimeout } from './waiters.js';

export interface RunnerContext {
  workspaceId: string;
  /** The lease token this runner holds the workspace under. */
  token: string;
  config: ChatSessionConfig;
  driver: ScanDriver;
  auth: ScanAuthStorageFactory;
  state: ScanStateService;
  rows: ScanSessionRepository;
  live: ScanLiveStateStore;
  sync: SyncProgressStore;
  handler: ScanEventHandler;
  messages: ScanMessageLookupRepository;
  logger: Logger;
  /** The runner is done: forget it and release its lease. */
  onStopped: () => Promise<void>;
}

/** What a connect request waits for: a QR to show, the connection, or the end of the session. */
type Settled = { kind: 'qr' } | { kind: 'open' } | { kind: 'stopped'; error: string | null } | { kind: 'timeout' };

const LOGOUT_TIMEOUT_MS = 10_000;
// Reconnect pace while Postgres (the failure count, the keys) is unreachable.
const STORE_RETRY_MS = 5_000;

/**
 * One workspace's socket in the process holding its lease: opens it, reacts to each close code
 * (close-policy.ts), reconnects with backoff, and hands data events to the inbox in order. Every
 * reconnect is a new socket (`generation`); events of a socket already left behind are ignored.
 */
export class ScanSessionRunner {
  private socket: ScanSocket | null = null;
  private generation = 0;
  private opening = false;
  private connected = false;
  private qr: string | null = null;
  /** The phone scanned a code of this session: the link is being finished (restart, login). */
  private paired: ScanIdentity | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private finished = false;
  private lifecycle: Promise<void> = Promise.resolve();
  private data: Promise<void> = Promise.resolve();
  /** Connect calls waiting for a QR, the connection or the end. */
  private readonly waiters = new Waiters<Settled>();
  /** Resume calls waiting for the first outcome of its connection (connected, QR, closed, stopped). */
  private readonly outcomes = new Waiters<void>();
  private stoppedPromise: Promise<void> | null = null;
  /** The whole of a stop (its writes, then the lease's release), from the moment it began. */
  private ending: Promise<void> | null = null;

  constructor(private readonly ctx: RunnerContext) {}

  get token(): string {
    return this.ctx.token;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /**
   * Resolves once a finished runner has written its end and released its lease. From the moment
   * the runner is finished, not only once the release began: a connect that comes in while the
   * stop's writes run (the status already shows the error) must wait for them, or it would reach
   * this finished runner and get its old error back.
   */
  get whenStopped(): Promise<void> {
    if (this.ending) return this.ending.catch(() => undefined);
    return this.stoppedPromise ?? Promise.resolve();
  }

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
    if (this.connected || this.qr !== null) return;
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

  async send(jid: string, outgoing: ScanOutgoing): Promise<ScanSent> {
    if (!this.connected || !this.socket || this.finished) throw new ScanNotConnectedError();
    return this.socket.send(jid, outgoing);
  }

  async markRead(keys: readonly ScanReadKey[]): Promise<void> {
    if (!this.connected || !this.socket || this.finished) throw new ScanNotConnectedError();
    await this.socket.markRead(keys);
  }

  /** `POST /api/chat/disconnect`: unlinks the device on the phone, deletes the auth state, stops. */
  logout(): Promise<void> {
    return this.ends(this.logoutNow());
  }

  private async logoutNow(): Promise<void> {
    const socket = this.socket;
    const wasOpen = this.connected;
    this.finish();
    if (socket && wasOpen) {
      try {
        await withTimeout(socket.logout(), LOGOUT_TIMEOUT_MS);
      } catch (error) {
        // The phone drops the device on its own once it notices; the keys go either way.
        this.ctx.logger.warn(`logout of ${this.ctx.workspaceId} not confirmed by the channel: ${reason(error)}`);
      }
    }
    socket?.close();
    try {
      await this.ctx.state.change(this.ctx.workspaceId, () => this.ctx.state.forget(this.ctx.workspaceId));
    } finally {
      await this.stopped({ kind: 'stopped', error: null });
    }
  }

  /** Lease lost or process stopping: close the socket at once, write nothing (another worker owns the state). */
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
      const socket = await this.ctx.driver.open({
        workspaceId,
        auth: this.ctx.auth.forWorkspace(workspaceId),
        getMessage: (_chatJid, externalId) => this.ctx.messages.outbound(workspaceId, externalId),
        listener: (event) => this.onEvent(generation, event),
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

  private onEvent(generation: number, event: ScanEvent): void {
    if (event.type === 'qr' || event.type === 'paired' || event.type === 'open' || event.type === 'closed') {
      if (generation !== this.generation || this.finished) return;
      this.lifecycle = this.lifecycle
        .then(() => (generation === this.generation && !this.finished ? this.onLifecycle(event) : undefined))
        .catch((error: unknown) => this.ctx.logger.error(`scan session ${this.ctx.workspaceId}: ${event.type} not handled: ${reason(error)}`));
      return;
    }
    // Data events go to the inbox in order, whatever happens to the socket afterwards.
    this.data = this.data
      .then(() => this.ctx.handler.handle(this.ctx.workspaceId, event))
      .catch((error: unknown) => this.ctx.logger.error(`scan session ${this.ctx.workspaceId}: ${event.type} event failed: ${reason(error)}`));
  }

  private async onLifecycle(event: Extract<ScanEvent, { type: 'qr' | 'paired' | 'open' | 'closed' }>): Promise<void> {
    const { workspaceId, token } = this.ctx;
    // Whatever happens next, this connection attempt has its outcome (a resume waits for it).
    this.outcome();
    if (event.type === 'qr') {
      this.qr = event.code;
      this.paired = null;
      await this.ctx.state.change(workspaceId, async () => {
        await this.ctx.live.write(workspaceId, token, { connected: false, qr: event.code, qrExpiresAt: event.expiresAt ?? null });
        // A link to come starts a new history sync; no history can arrive before the scan.
        await this.ctx.sync.reset(workspaceId);
      });
      this.settle({ kind: 'qr' });
    } else if (event.type === 'paired') {
      await this.scanned(event.identity);
    } else if (event.type === 'open') {
      await this.opened(event.identity);
      this.settle({ kind: 'open' });
    } else {
      await this.closed(event);
    }
  }

  /**
   * The phone scanned the code: it is no longer waiting, and the number shows as linked but not
   * connected until the channel's restart and the login are done (`opened`).
   */
  private async scanned(identity: ScanIdentity): Promise<void> {
    const { workspaceId, token } = this.ctx;
    this.qr = null;
    this.paired = identity;
    await this.ctx.state.change(workspaceId, () => this.ctx.live.write(workspaceId, token, this.linkingState()));
    this.ctx.logger.log(`scan session ${workspaceId}: the QR code was scanned (${identity.jid || 'no jid yet'}); finishing the link`);
  }

  /** Not connected, no code: still linking when a scan happened (its restart or login failed for now). */
  private linkingState(): { connected: false; qr: null; paired: boolean; pairedJid: string | null } {
    return { connected: false, qr: null, paired: this.paired !== null, pairedJid: this.paired?.jid || null };
  }

  private async opened(identity: ScanIdentity): Promise<void> {
    const { workspaceId, token } = this.ctx;
    this.connected = true;
    this.qr = null;
    this.paired = null;
    const before = await this.ctx.rows.find(workspaceId);
    await this.ctx.state.change(workspaceId, async () => {
      await this.ctx.rows.update(workspaceId, { desired: 'running', linked: true, jid: identity.jid, failures: 0, lastError: null, qrExpired: false });
      await this.ctx.live.write(workspaceId, token, { connected: true, qr: null });
    });
    this.ctx.logger.log(`scan session ${workspaceId} connected as ${identity.jid}${before.linked ? '' : ' (newly linked)'}`);
  }

  private async closed(event: Extract<ScanEvent, { type: 'closed' }>): Promise<void> {
    const { workspaceId } = this.ctx;
    this.socket = null;
    this.connected = false;
    this.qr = null;
    const policy = closePolicy(event);
    const log = `scan session ${workspaceId} closed with ${event.code} (${event.reason}): ${policy.action}`;
    // The 515 after pairing and a QR nobody scanned are normal steps; a lost connection and a
    // logout from the phone are worth a warning; only a stop for another reason is an error.
    const level = policy.action === 'reconnect-now' || policy.action === 'qr-expired' ? 'log' : policy.action === 'stop' ? 'error' : 'warn';
    this.ctx.logger[level](log);
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
        return this.fail(`${event.reason} (${event.code})`);
    }
  }

  /** A failed connection: retry after a growing delay, or stop once it failed too often in a row. */
  private async fail(text: string): Promise<void> {
    const { workspaceId, token, config } = this.ctx;
    const failures = await this.ctx.rows.addFailure(workspaceId).catch(() => null);
    if (failures !== null && failures >= config.maxFailures) {
      return this.stop({ lastError: `the connection failed ${failures} times in a row (last: ${text}); call POST /api/chat/connect to try again` });
    }
    await this.ctx.state
      .change(workspaceId, () => this.ctx.live.write(workspaceId, token, this.linkingState()))
      .catch((error: unknown) => this.ctx.logger.warn(`scan session ${workspaceId}: state not written: ${reason(error)}`));
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
  }

  /** Logged out on the phone: the auth state goes, the lease is released, the status says why. */
  private async forgetNow(error: string): Promise<void> {
    const { workspaceId } = this.ctx;
    this.finish();
    try {
      await this.ctx.state.change(workspaceId, () => this.ctx.state.forget(workspaceId, { lastError: error }));
    } finally {
      await this.stopped({ kind: 'stopped', error: null });
    }
  }

  /** Stops for good (until the next connect): the reason goes to the status, the lease is released. */
  private stop(patch: ScanSessionPatch): Promise<void> {
    return this.ends(this.stopNow(patch));
  }

  /** Remembers a stop that began (it finished the runner synchronously): see `whenStopped`. */
  private ends(ending: Promise<void>): Promise<void> {
    this.ending ??= ending;
    return ending;
  }

  private async stopNow(patch: ScanSessionPatch): Promise<void> {
    const { workspaceId } = this.ctx;
    const socket = this.socket;
    this.finish();
    socket?.close();
    try {
      await this.ctx.state.change(workspaceId, async () => {
        await this.ctx.rows.update(workspaceId, { desired: 'stopped', ...patch });
        await this.ctx.live.clear(workspaceId);
      });
    } finally {
      // Whatever happened to the writes, the lease goes: a finished runner holds nothing.
      await this.stopped({ kind: 'stopped', error: patch.lastError ?? null });
    }
  }

  private async stopped(settled: Settled): Promise<void> {
    this.settle(settled);
    this.stoppedPromise ??= this.ctx.onStopped();
    await this.stoppedPromise;
  }

  private finish(): void {
    this.finished = true;
    this.connected = false;
    this.qr = null;
    this.paired = null;
    this.socket = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private settle(settled: Settled): void {
    this.waiters.notify(settled);
    if (settled.kind === 'stopped') this.outcome();
  }

  private outcome(): void {
    this.outcomes.notify();
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
