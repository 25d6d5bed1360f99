import type { Logger } from '@nestjs/common';
import type { ChatSessionConfig } from '../../../infra/config/config-sections.js';
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
}

/**
 * A worker's part in placement (docs/operations.md, "Placement"): it heartbeats into the
 * membership list with its cap and load, sweeps only numbers whose home it is, and hands the
 * numbers whose home moved elsewhere over, one at a time, at most one per
 * CHAT_HANDOVER_INTERVAL_MS: socket closed, lease released, the new home told to take it.
 */
export class PlacementDuties {
  private handing: Promise<void> | null = null;
  private leaving = false;

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

  /** Of `candidates` (numbers nobody holds), those whose home is this worker. */
  async mine(candidates: readonly string[]): Promise<string[]> {
    const { plan } = await this.placement.view(this.self());
    return candidates.filter((workspaceId) => plan.get(workspaceId) === this.host.processId);
  }

  async isMine(workspaceId: string): Promise<boolean> {
    return (await this.mine([workspaceId])).length === 1;
  }

  /** One handover step: the first connected number whose home is another live worker with room. */
  async rebalance(): Promise<void> {
    if (this.handing || this.leaving) return;
    const view = await this.placement.view(this.self());
    const move = this.nextMove(view);
    if (!move) return;
    this.handing = (async () => {
      this.logger.log(`scan session ${move.workspaceId}: its home is now worker ${move.home}; handing it over`);
      await this.host.handOver(move.workspaceId);
      this.placement.invalidate();
      this.host.nudge(move.home, move.workspaceId);
    })()
      .catch((error: unknown) => this.logger.warn(`handover of ${move.workspaceId} failed: ${String(error)}`))
      .finally(() => (this.handing = null));
    await this.handing;
  }

  private nextMove(view: PlacementView): { workspaceId: string; home: string } | null {
    const room = new Map(view.workers.filter((worker) => !worker.leaving).map((worker) => [worker.id, worker.capacity - worker.held]));
    for (const { workspaceId, connected } of this.host.held()) {
      const home = view.plan.get(workspaceId);
      // Unplaced or at home stay; a number still connecting moves once it is connected.
      if (!home || home === this.host.processId || !connected) continue;
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
