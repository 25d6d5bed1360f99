import type { Logger } from '@nestjs/common';
import type { ChatSessionConfig } from '../../../infra/config/config-sections.js';
import { preference } from './placement-plan.js';
import type { PlacementService, PlacementView } from './placement.service.js';
import type { WorkerMember, WorkerMembershipStore } from './worker-membership.store.js';

/** What the placement duties need of the worker's session manager. */
export interface PlacementHost {
  readonly processId: string;
  /** The numbers this process holds a socket of, and whether each is connected (safe to move). */
  held(): { workspaceId: string; connected: boolean }[];
  /** Closes the socket cleanly (in-flight messages committed) and releases the lease. */
  handOver(workspaceId: string): Promise<void>;
  /** Tells `home` (a worker's process id) to take `workspaceId` now rather than at its next sweep. */
  nudge(home: string, workspaceId: string): void;
  /** Whether any worker holds the number's lease now. */
  isHeld(workspaceId: string): Promise<boolean>;
}

// A number whose home has not taken it for this many lease lifetimes is taken by its second
// choice (a home that heartbeats but cannot connect it must not keep it offline), and is not
// handed back for FALLBACK_HOLD_MS.
const STUCK_LEASES = 3;
const FALLBACK_HOLD_MS = 10 * 60_000;
// What a worker that is not a new number's first choice waits before it answers the claim.
const CLAIM_DEFER_MS = 300;

/**
 * A worker's part in placement (docs/operations.md, "Placement"): it heartbeats into the
 * membership list with its cap and load, sweeps only numbers whose home it is, and hands the
 * numbers whose home moved elsewhere over, one at a time, at most one per
 * CHAT_HANDOVER_INTERVAL_MS: socket closed, lease released, the new home told to take it.
 */
export class PlacementDuties {
  private handing = false;
  private leaving = false;
  /** Numbers of another home that this worker is second choice for, since when nobody held them. */
  private readonly unheldSince = new Map<string, number>();
  /** Numbers this worker took for a stuck home, and when. */
  private readonly tookOver = new Map<string, number>();

  constructor(
    private readonly host: PlacementHost,
    private readonly placement: PlacementService,
    private readonly members: WorkerMembershipStore,
    private readonly config: ChatSessionConfig,
    private readonly logger: Logger,
  ) {}

  private self(): WorkerMember {
    return { id: this.host.processId, capacity: this.config.maxSessionsPerWorker, held: this.host.held().length, leaving: this.leaving };
  }

  /** With every lease renewal: the same time to live, so members and leases agree on who lives. */
  async heartbeat(): Promise<void> {
    await this.members.heartbeat(this.self(), this.config.leaseTtlMs);
  }

  /** Whether this worker may take one more number (its cap). */
  hasRoom(): boolean {
    return !this.leaving && this.host.held().length < this.config.maxSessionsPerWorker;
  }

  /**
   * The numbers this worker should hold: those whose home it is, and those whose home has left
   * them unheld for STUCK_LEASES lease lifetimes while this worker is their second choice.
   */
  async homeNumbers(): Promise<string[]> {
    const { plan, workers } = await this.placement.view(this.self());
    const homes = workers.filter((worker) => !worker.leaving);
    const me = this.host.processId;
    const mine: string[] = [];
    const watched = new Set<string>();
    for (const [workspaceId, home] of plan) {
      if (home === me) mine.push(workspaceId);
      else if (home !== null && preference(workspaceId, homes)[1]?.id === me) watched.add(workspaceId);
    }
    const now = Date.now();
    for (const workspaceId of watched) {
      if (await this.host.isHeld(workspaceId)) {
        this.unheldSince.delete(workspaceId);
        continue;
      }
      const since = this.unheldSince.get(workspaceId) ?? now;
      this.unheldSince.set(workspaceId, since);
      if (now - since < STUCK_LEASES * this.config.leaseTtlMs) continue;
      this.logger.warn(`scan session ${workspaceId}: its home has not taken it for ${now - since} ms; taking it as its second choice`);
      this.tookOver.set(workspaceId, now);
      this.unheldSince.delete(workspaceId);
      mine.push(workspaceId);
    }
    for (const workspaceId of this.unheldSince.keys()) if (!watched.has(workspaceId)) this.unheldSince.delete(workspaceId);
    for (const [workspaceId, at] of this.tookOver) if (now - at > FALLBACK_HOLD_MS) this.tookOver.delete(workspaceId);
    return mine;
  }

  async isMine(workspaceId: string): Promise<boolean> {
    const { plan } = await this.placement.view(this.self());
    return plan.get(workspaceId) === this.host.processId;
  }

  /**
   * How long to wait before answering a claim (a new link): none for the worker the number would
   * be placed on (its first choice among the live workers with room), a moment for the others,
   * so the number usually starts at its home instead of being handed over right after its link.
   */
  async claimDelayMs(workspaceId: string): Promise<number> {
    const { workers } = await this.placement.view(this.self()).catch(() => ({ workers: [] as WorkerMember[] }));
    const open = workers.filter((worker) => !worker.leaving && worker.held < worker.capacity);
    const first = preference(workspaceId, open)[0];
    return !first || first.id === this.host.processId ? 0 : CLAIM_DEFER_MS;
  }

  /** One handover step: the first connected number whose home is another live worker with room. */
  async rebalance(): Promise<void> {
    if (this.handing || this.leaving) return;
    this.handing = true;
    try {
      const view = await this.placement.view(this.self());
      const move = this.nextMove(view);
      if (!move) return;
      this.logger.log(`scan session ${move.workspaceId}: its home is now worker ${move.home}; handing it over`);
      await this.host.handOver(move.workspaceId);
      this.placement.invalidate();
      this.host.nudge(move.home, move.workspaceId);
    } finally {
      this.handing = false;
    }
  }

  private nextMove(view: PlacementView): { workspaceId: string; home: string } | null {
    const room = new Map(view.workers.filter((worker) => !worker.leaving).map((worker) => [worker.id, worker.capacity - worker.held]));
    for (const { workspaceId, connected } of this.host.held()) {
      const home = view.plan.get(workspaceId);
      // Unplaced or at home stay; a number still connecting moves once it is connected.
      if (!home || home === this.host.processId || !connected || this.tookOver.has(workspaceId)) continue;
      if ((room.get(home) ?? 0) > 0) return { workspaceId, home };
    }
    return null;
  }

  /**
   * Shutting down: listed as leaving first (nobody's home from now on), so once the sockets are
   * closed and their leases released the others take the numbers by the same rule; each new
   * home is told at once. Then off the list.
   */
  async leave(released: readonly string[]): Promise<void> {
    this.placement.invalidate();
    const view = await this.placement.view().catch(() => null);
    if (view) {
      for (const workspaceId of released) {
        const home = view.plan.get(workspaceId);
        if (home && home !== this.host.processId) this.host.nudge(home, workspaceId);
      }
    }
    await this.members.leave(this.host.processId).catch(() => undefined);
  }

  /** First step of a shutdown: announce it before the sockets close. */
  async announceLeaving(): Promise<void> {
    this.leaving = true;
    await this.heartbeat().catch(() => undefined);
  }
}
