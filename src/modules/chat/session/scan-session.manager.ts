import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { SCAN_AUTH_STORAGE, SCAN_DRIVER, type ScanAuthStorageFactory, type ScanDriver } from '../driver/scan-driver.port.js';
import { PlacementDuties } from '../placement/placement-duties.js';
import { PlacementService } from '../placement/placement.service.js';
import { WorkerMembershipStore } from '../placement/worker-membership.store.js';
import { decodeOutgoing, type WireOutgoing } from './outgoing-wire.js';
import { IGNORED, type ControlOp, ScanControlBus } from './scan-control.bus.js';
import { ScanLeases } from './scan-leases.js';
import { ScanLiveStateStore } from './scan-live-state.store.js';
import { ScanMessageLookupRepository } from './scan-message-lookup.repository.js';
import { ScanSessionRepository } from './scan-session.repository.js';
import type { PasskeyStep } from './scan-session-passkey.js';
import { ScanSessionRunner } from './scan-session.runner.js';
import { ScanEventHandler, ScanNotConnectedError } from './scan-sessions.port.js';
import { ScanStateService } from './scan-state.service.js';
import { SyncProgressStore } from './sync-progress.store.js';
import type { ScanPresence, ScanReadKey } from '../driver/scan-driver.port.js';

/** The answer of a holder that has no socket for the workspace (its hold ended meanwhile). */
export const NOT_HELD = 'ScanSessionNotHeld';

// A resume that has no outcome by then (a hung handshake) stops counting against the concurrency.
const RESUME_WAIT_MS = 30_000;

/**
 * The sockets of this process (`worker` and `all` roles only). Each is held under a Redis lease
 * renewed every third of its TTL; a lost lease closes the socket at once. A sweep (at start-up,
 * then every CHAT_SWEEP_INTERVAL_MS) takes over every wanted, linked session nobody holds,
 * a few per second, so a restart or a dead worker never needs a new QR.
 */
@Injectable()
export class ScanSessionManager implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ScanSessions');
  private readonly runners = new Map<string, ScanSessionRunner>();
  private renewTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private handoverTimer: NodeJS.Timeout | undefined;
  private readonly placement: PlacementDuties;
  private sweeping = false;
  // Resumes still connecting, across sweeps: a sweep ends once it has started its candidates, so
  // a session that becomes resumable later is taken by the next sweep as soon as a slot frees up,
  // instead of waiting for every handshake of an earlier sweep (up to RESUME_WAIT_MS).
  private readonly connecting = new Set<Promise<void>>();
  // Sessions the sweep has taken the lease of and is about to start (it re-reads the row first):
  // a connect arriving meanwhile waits for that runner instead of failing to take the lease and
  // leaving the request unanswered (a restart sets a linked number running, which the sweep takes too).
  private readonly resuming = new Map<string, Promise<void>>();
  private stopping = false;
  private lastRenewal = Date.now();

  constructor(
    private readonly config: AppConfig,
    private readonly bus: ScanControlBus,
    private readonly leases: ScanLeases,
    private readonly rows: ScanSessionRepository,
    private readonly live: ScanLiveStateStore,
    private readonly state: ScanStateService,
    private readonly sync: SyncProgressStore,
    private readonly messages: ScanMessageLookupRepository,
    private readonly handler: ScanEventHandler,
    @Inject(SCAN_DRIVER) private readonly driver: ScanDriver,
    @Inject(SCAN_AUTH_STORAGE) private readonly auth: ScanAuthStorageFactory,
    placement: PlacementService,
    members: WorkerMembershipStore,
  ) {
    this.placement = new PlacementDuties(
      {
        processId: this.bus.processId,
        held: () =>
          [...this.runners].filter(([, runner]) => !runner.isFinished).map(([workspaceId, runner]) => ({ workspaceId, connected: runner.isConnected })),
        handOver: (workspaceId) => this.handOver(workspaceId),
        nudge: (home, workspaceId) =>
          void this.bus.request({ holder: home }, 'adopt', workspaceId, null, this.config.chat.connectWaitMs).catch(() => undefined),
        isHeld: async (workspaceId) => (await this.leases.holder(workspaceId)) !== null,
      },
      placement,
      members,
      this.config.chat,
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    if (!this.config.runsWorkers) return;
    this.bus.serve((op, workspaceId, args) => this.handle(op, workspaceId, args));
    const { leaseTtlMs, sweepIntervalMs } = this.config.chat;
    this.renewTimer = setInterval(() => void this.renew(), Math.max(50, Math.floor(leaseTtlMs / 3)));
    this.sweepTimer = setInterval(() => void this.sweep(), sweepIntervalMs);
    this.handoverTimer = setInterval(
      () => void this.placement.rebalance().catch((error: unknown) => this.logger.warn(`placement: ${String(error)}`)),
      this.config.chat.handoverIntervalMs,
    );
    void this.placement
      .heartbeat()
      .catch(() => undefined)
      .then(() => this.sweep());
  }

  /** Sockets close before the connections they need do; leases are released for a quick takeover. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.config.runsWorkers) return;
    this.stopping = true;
    clearInterval(this.renewTimer);
    clearInterval(this.sweepTimer);
    clearInterval(this.handoverTimer);
    // Nobody's home from now on: the others place this worker's numbers among themselves.
    await this.placement.announceLeaving();
    const runners = [...this.runners];
    this.runners.clear();
    await Promise.all(
      runners.map(async ([workspaceId, runner]) => {
        await runner.abandon();
        await this.leases.release(workspaceId, runner.token).catch(() => undefined);
      }),
    );
    await this.placement.leave(runners.map(([workspaceId]) => workspaceId));
  }

  /**
   * Moves a number to its new home: what the inbox was handed is committed (and acknowledged)
   * first, then the socket closes, and only then does the lease go.
   */
  private async handOver(workspaceId: string): Promise<void> {
    const runner = this.runners.get(workspaceId);
    if (!runner || this.stopping) return;
    await runner.drained();
    this.runners.delete(workspaceId);
    await runner.abandon();
    await this.leases.release(workspaceId, runner.token);
  }

  /** How many sockets this process holds (metrics). */
  get heldCount(): number {
    return this.runners.size;
  }

  /** The socket runner of a workspace held by this process. */
  local(workspaceId: string): ScanSessionRunner | undefined {
    const runner = this.runners.get(workspaceId);
    return runner && !runner.isFinished ? runner : undefined;
  }

  private async handle(op: ControlOp, workspaceId: string, args: unknown): Promise<unknown> {
    if (this.stopping) return IGNORED;
    await this.resuming.get(workspaceId);
    let runner = this.runners.get(workspaceId);
    if (runner?.isFinished) {
      await runner.whenStopped;
      runner = this.runners.get(workspaceId);
    }
    if (op === 'adopt') {
      // A number's old holder (or a worker shutting down) says this worker is its home now.
      if (!runner && this.placement.hasRoom() && (await this.placement.isMine(workspaceId))) await this.resumeOne(workspaceId);
      return null;
    }
    if (op === 'connect' || op === 'pairingCode') {
      // A full worker leaves new numbers to the others (placement's cap); the others let the
      // number's first choice answer first.
      if (!runner && !this.placement.hasRoom()) return IGNORED;
      if (!runner) await sleep(await this.placement.claimDelayMs(workspaceId));
      runner = this.runners.get(workspaceId);
      if (!runner) {
        const token = ScanLeases.token(this.bus.processId);
        if (!(await this.leases.acquire(workspaceId, token, this.config.chat.leaseTtlMs))) return IGNORED;
        runner = this.start(workspaceId, token);
      }
      if (op === 'pairingCode') {
        const { code, expiresAt } = await runner.requestPairingCode((args as { phone: string }).phone);
        return { code, expires_at: expiresAt?.toISOString() ?? null };
      }
      await runner.connect();
      return this.state.read(workspaceId);
    }
    if (!runner) {
      if (op === 'disconnect' || op === 'stop') throw Object.assign(new Error('not held here'), { name: NOT_HELD });
      throw new ScanNotConnectedError();
    }
    switch (op) {
      case 'disconnect':
        await runner.logout();
        return this.state.read(workspaceId);
      case 'stop':
        await runner.halt();
        return this.state.read(workspaceId);
      case 'send': {
        const { jid, outgoing } = args as { jid: string; outgoing: WireOutgoing };
        return runner.send(jid, decodeOutgoing(outgoing));
      }
      case 'markRead':
        await runner.markRead((args as { keys: ScanReadKey[] }).keys);
        return null;
      case 'presence': {
        const { jid, state } = args as { jid: string; state: ScanPresence };
        await runner.presence(jid, state);
        return null;
      }
      case 'lookup':
        return runner.lookup((args as { phones: string[] }).phones);
      case 'passkey':
        return runner.passkeyStep(args as PasskeyStep);
    }
  }

  private start(workspaceId: string, token: string): ScanSessionRunner {
    const runner: ScanSessionRunner = new ScanSessionRunner({
      workspaceId,
      token,
      config: this.config.chat,
      driver: this.driver,
      auth: this.auth,
      state: this.state,
      rows: this.rows,
      live: this.live,
      sync: this.sync,
      handler: this.handler,
      messages: this.messages,
      logger: this.logger,
      onStopped: async () => {
        if (this.runners.get(workspaceId) === runner) this.runners.delete(workspaceId);
        await this.leases.release(workspaceId, token).catch((error: unknown) => this.logger.warn(`lease of ${workspaceId} not released: ${String(error)}`));
      },
    });
    this.runners.set(workspaceId, runner);
    return runner;
  }

  /** Extends every lease of this process; a session whose lease is gone closes at once. */
  private async renew(): Promise<void> {
    const holds = [...this.runners].map(([workspaceId, runner]) => ({ workspaceId, token: runner.token }));
    let lost: string[];
    try {
      lost = await this.leases.renew(holds, this.config.chat.leaseTtlMs);
      this.lastRenewal = Date.now();
    } catch (error) {
      // Redis unreachable: the leases run out a TTL after the last renewal, and another worker
      // may then take them. Close every socket while a third of the TTL is left, so two sockets
      // never run on one number.
      const silentMs = Date.now() - this.lastRenewal;
      if (silentMs < (this.config.chat.leaseTtlMs * 2) / 3) return;
      this.logger.error(`leases not renewed for ${silentMs} ms (${String(error)}): closing every socket of this process`);
      lost = holds.map((hold) => hold.workspaceId);
    }
    for (const workspaceId of lost) {
      const runner = this.runners.get(workspaceId);
      if (!runner || !holds.some((hold) => hold.workspaceId === workspaceId && hold.token === runner.token)) continue;
      this.logger.warn(`scan session ${workspaceId}: lease lost, socket closed`);
      this.runners.delete(workspaceId);
      await runner.abandon();
    }
    // After the lost leases are closed, whatever Redis said: a failed heartbeat must not keep them open.
    await this.placement.heartbeat().catch((error: unknown) => this.logger.warn(`placement heartbeat failed: ${String(error)}`));
  }

  /**
   * Takes every wanted, linked session nobody holds, staggered: at most CHAT_RESUME_PER_SECOND
   * starts a second, and at most CHAT_RESUME_CONCURRENCY connecting at once (a loaded worker
   * slows down instead of piling up handshakes that then time out).
   */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.stopping) return;
    this.sweeping = true;
    try {
      // Only the numbers whose home this worker is (placement), while it has room.
      const candidates = shuffle((await this.placement.homeNumbers()).filter((workspaceId) => !this.runners.has(workspaceId)));
      const { resumePerSecond, resumeConcurrency } = this.config.chat;
      for (const workspaceId of candidates) {
        while (this.connecting.size >= resumeConcurrency && !this.stopping) await Promise.race(this.connecting);
        if (this.stopping || !this.placement.hasRoom()) break;
        if (await this.resumeOne(workspaceId)) await sleep(1000 / resumePerSecond);
      }
    } catch (error) {
      this.logger.warn(`session sweep failed: ${String(error)}`);
    } finally {
      this.sweeping = false;
    }
  }

  /** Takes a session nobody holds and starts its resume; false when someone else had it. */
  private async resumeOne(workspaceId: string): Promise<boolean> {
    if (this.runners.has(workspaceId) || this.resuming.has(workspaceId)) return false;
    const taking = this.takeOver(workspaceId);
    this.resuming.set(
      workspaceId,
      taking.then(
        () => undefined,
        () => undefined,
      ),
    );
    const runner = await taking.finally(() => this.resuming.delete(workspaceId));
    if (!runner) return false;
    const resumed: Promise<void> = runner.resume(RESUME_WAIT_MS).finally(() => this.connecting.delete(resumed));
    this.connecting.add(resumed);
    return true;
  }

  /** The sweep's take-over of one session: its lease, then (re-checked under it) a runner; undefined when not. */
  private async takeOver(workspaceId: string): Promise<ScanSessionRunner | undefined> {
    const token = ScanLeases.token(this.bus.processId);
    if (!(await this.leases.acquire(workspaceId, token, this.config.chat.leaseTtlMs))) return undefined;
    // Re-read under the lease: a disconnect may have happened since the list was read.
    const row = await this.rows.find(workspaceId).catch(() => null);
    if (!row || row.desired !== 'running' || !row.linked || this.stopping) {
      await this.leases.release(workspaceId, token);
      return undefined;
    }
    this.logger.log(`scan session ${workspaceId}: resuming`);
    return this.start(workspaceId, token);
  }
}

// Workers starting together would otherwise all race for the same sessions in the same order.
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
