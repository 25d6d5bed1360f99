import type { Logger } from '@nestjs/common';
import type { ChatSessionConfig } from '../../../infra/config/app-config.js';
import type { ScanAuthStorageFactory, ScanDriver, ScanIdentity, ScanPairingCode, ScanSocket } from '../driver/scan-driver.port.js';
import { HeldPhase, heldState } from './held-phase.js';
import type { PasskeyCeremony } from './scan-session-passkey.js';
import type { ScanMessageLookupRepository } from './scan-message-lookup.repository.js';
import type { ScanLiveState, ScanLiveStateStore } from './scan-live-state.store.js';
import type { ScanSessionPatch, ScanSessionRepository } from './scan-session.repository.js';
import type { ScanEventHandler } from './scan-sessions.port.js';
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
export type Settled = { kind: 'qr' } | { kind: 'open' } | { kind: 'stopped'; error: string | null } | { kind: 'timeout' };

const LOGOUT_TIMEOUT_MS = 10_000;

/**
 * What a session runner knows of its socket, and how it ends: every way it stops (on purpose, on
 * an error, logged out, refused by the passkey check) writes its end, releases the lease and
 * settles whoever waits. `ScanSessionRunner` (the connection's life) builds on it.
 */
export abstract class ScanSessionEnds {
  protected socket: ScanSocket | null = null;
  protected connected = false;
  protected qr: string | null = null;
  protected qrExpiresAt: Date | null = null;
  /** A pairing code waits to be entered on the phone (this socket asked for it). */
  protected pairing: ScanPairingCode | null = null;
  /** The phone scanned a code of this session: the link is being finished (restart, login). */
  protected paired: ScanIdentity | null = null;
  protected retryTimer: NodeJS.Timeout | null = null;
  /** WhatsApp's passkey check runs on this socket (CHAT_PASSKEY_CEREMONY; scan-session-passkey.ts). */
  protected ceremony: PasskeyCeremony | null = null;
  protected finished = false;
  /** Connect calls waiting for a QR, the connection or the end. */
  protected readonly waiters = new Waiters<Settled>();
  /** Resume calls waiting for the first outcome of its connection (connected, QR, closed, stopped). */
  protected readonly outcomes = new Waiters<void>();
  private readonly phase = new HeldPhase();
  private stoppedPromise: Promise<void> | null = null;
  /** The whole of a stop (its writes, then the lease's release), from the moment it began. */
  private ending: Promise<void> | null = null;

  constructor(protected readonly ctx: RunnerContext) {}

  get token(): string {
    return this.ctx.token;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** The socket is open and logged in (placement moves only such numbers). */
  get isConnected(): boolean {
    return this.connected && !this.finished;
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

  /**
   * The live half as this runner knows it, with its named state (`HeldPhase`: `since` moves only
   * when it changes): connected, a code waiting, scanned and still linking, or backing off.
   */
  protected writeLive(): Promise<void> {
    const state: ScanLiveState = {
      connected: this.connected,
      qr: this.qr,
      qrExpiresAt: this.qrExpiresAt,
      paired: this.paired !== null,
      pairedJid: this.paired?.jid || null,
      ...this.phase.at(
        heldState({
          connected: this.connected,
          pairing: this.pairing !== null,
          qr: this.qr !== null,
          backingOff: this.retryTimer !== null,
          passkey: this.ceremony?.state ?? null,
        }),
      ),
      passkey: this.ceremony
        ? { id: this.ceremony.id, code: this.ceremony.code, expiresAt: this.ceremony.expiresAt, submitted: this.ceremony.submitted }
        : null,
    };
    return this.ctx.live.write(this.ctx.workspaceId, this.ctx.token, state);
  }

  /**
   * No half-made credentials: a link that never finished (no scan, no entered code, and the number
   * not linked before) leaves no keys behind; after a pairing code Baileys' creds already name the
   * number, and a socket opened on them would try to log in as a device that does not exist.
   */
  protected async dropUnfinishedLink(): Promise<void> {
    const { workspaceId } = this.ctx;
    try {
      if ((await this.ctx.rows.find(workspaceId)).linked) return;
      await this.ctx.auth.forWorkspace(workspaceId).clear();
    } catch (error) {
      this.ctx.logger.warn(`scan session ${workspaceId}: the keys of the unfinished link were not deleted: ${reason(error)}`);
    }
  }

  /**
   * Logged out on the phone (or refused by the passkey check): the auth state goes, the lease is
   * released, the status says why. `open`: a socket still open, closed once that is written (so
   * that what it still sends, an acknowledgement, goes out first).
   */
  protected async forgetNow(error: string, state: 'logged_out' | 'passkey_required' = 'logged_out', open: ScanSocket | null = null): Promise<void> {
    const { workspaceId } = this.ctx;
    this.finish();
    try {
      await this.ctx.state.change(workspaceId, () => this.ctx.state.forget(workspaceId, { lastError: error, state }));
    } finally {
      open?.close();
      await this.stopped({ kind: 'stopped', error: null });
    }
  }

  /** Stops for good (until the next connect): the reason goes to the status, the lease is released. */
  protected stop(patch: ScanSessionPatch): Promise<void> {
    return this.ends(this.stopNow(patch));
  }

  /** Remembers a stop that began (it finished the runner synchronously): see `whenStopped`. */
  protected ends(ending: Promise<void>): Promise<void> {
    this.ending ??= ending;
    return ending;
  }

  protected async stopNow(patch: ScanSessionPatch): Promise<void> {
    const { workspaceId } = this.ctx;
    const socket = this.socket;
    const unfinished = this.paired === null && patch.linked !== true;
    this.finish();
    socket?.close();
    try {
      if (unfinished) await this.dropUnfinishedLink();
      await this.ctx.state.change(workspaceId, async () => {
        await this.ctx.rows.update(workspaceId, { desired: 'stopped', state: patch.lastError ? 'failed' : 'stopped', ...patch });
        await this.ctx.live.clear(workspaceId);
      });
    } finally {
      // Whatever happened to the writes, the lease goes: a finished runner holds nothing.
      await this.stopped({ kind: 'stopped', error: patch.lastError ?? null });
    }
  }

  protected async stopped(settled: Settled): Promise<void> {
    this.settle(settled);
    this.stoppedPromise ??= this.ctx.onStopped();
    await this.stoppedPromise;
  }

  protected finish(): void {
    this.finished = true;
    this.connected = false;
    this.qr = null;
    this.pairing = null;
    this.paired = null;
    this.socket = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.ceremony) clearTimeout(this.ceremony.timer);
    this.ceremony = null;
  }

  protected settle(settled: Settled): void {
    this.waiters.notify(settled);
    if (settled.kind === 'stopped') this.outcome();
  }

  protected outcome(): void {
    this.outcomes.notify();
  }
}

export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
