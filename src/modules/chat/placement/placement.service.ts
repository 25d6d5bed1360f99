import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ScanSessionRepository } from '../session/scan-session.repository.js';
import { type PlacementPlan, placementPlan } from './placement-plan.js';
import { type WorkerMember, WorkerMembershipStore } from './worker-membership.store.js';

/** The cluster's placement as of one read: the live workers and every linked number's home. */
export interface PlacementView {
  workers: WorkerMember[];
  plan: PlacementPlan;
}

// Sweeps, handovers and status reads within this long share one read of members and numbers.
const VIEW_TTL_MS = 250;

/**
 * Where each linked, wanted number lives (docs/operations.md, "Placement"): every worker reads
 * the same members (heartbeats in Redis) and the same numbers (Postgres) and so computes the same
 * homes (`placementPlan`: weighted rendezvous hashing with a bounded load and each worker's cap).
 * A worker that is shutting down (`leaving`) is no one's home.
 */
@Injectable()
export class PlacementService {
  private cached: { at: number; view: Promise<PlacementView> } | null = null;
  private lastPlan: { key: string; plan: PlacementPlan } | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly members: WorkerMembershipStore,
    private readonly rows: ScanSessionRepository,
  ) {}

  /** This process's cap (and weight): CHAT_MAX_SESSIONS_PER_WORKER. */
  get capacity(): number {
    return this.config.chat.maxSessionsPerWorker;
  }

  /** The placement now; `self`, a worker that may not have heartbeated yet, counts as live. */
  async view(self?: WorkerMember): Promise<PlacementView> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > VIEW_TTL_MS) {
      const view = this.read();
      this.cached = { at: now, view };
      view.catch(() => (this.cached = null));
    }
    const view = await this.cached.view;
    if (!self || view.workers.some((worker) => worker.id === self.id)) return view;
    // Not listed yet (its first heartbeat is on its way): plan with it, as the others soon will.
    return this.planFor([...view.workers, self]);
  }

  /**
   * Where `workspaceId` lives: null when it is not a number placement places (not linked, or
   * stopped); `holder` is the process holding its lease, if any.
   */
  async of(workspaceId: string, holder: string | null): Promise<NumberPlacement | null> {
    // The status must answer even when the placement cannot be read this moment.
    const read = (): Promise<PlacementPlan | null> =>
      this.view().then(
        (view) => view.plan,
        () => null,
      );
    let plan = await read();
    // Linked a moment ago (the cached view is older than that): read again once.
    if (plan && !plan.has(workspaceId)) {
      this.invalidate();
      plan = await read();
    }
    if (!plan) return null;
    if (!plan.has(workspaceId)) return null;
    const state = holder ? 'held' : plan.get(workspaceId) ? 'waiting' : 'unplaced';
    return { state, explanation: PLACEMENT_TEXT[state] };
  }

  /** How many numbers no worker has room for, cluster-wide (metrics). */
  async unplaced(): Promise<number> {
    const { plan } = await this.view();
    return [...plan.values()].filter((home) => home === null).length;
  }

  /** Forgets the cached view (membership changed here). */
  invalidate(): void {
    this.cached = null;
  }

  private async read(): Promise<PlacementView> {
    return this.planFor(await this.members.live());
  }

  private async planFor(workers: WorkerMember[]): Promise<PlacementView> {
    const numbers = await this.rows.placeable();
    const homes = workers.filter((worker) => !worker.leaving);
    // The plan hashes every number with every worker: computed again only when its inputs change
    // (a worker came, went or changed its cap; a number was linked or stopped), not on every read.
    const key = `${homes.map((worker) => `${worker.id}:${worker.capacity}`).join(',')}|${numbers.join(',')}`;
    if (this.lastPlan?.key !== key) this.lastPlan = { key, plan: placementPlan(numbers, homes) };
    return { workers, plan: this.lastPlan.plan };
  }
}

/** A linked number's place, as the status shows it. */
export interface NumberPlacement {
  state: 'held' | 'waiting' | 'unplaced';
  explanation: string;
}

export const PLACEMENT_TEXT: Record<NumberPlacement['state'], string> = {
  held: 'a worker holds this number',
  waiting: 'a worker is taking this number over (a worker started, stopped or died, or the number is moving to its new home)',
  unplaced: 'every worker holds CHAT_MAX_SESSIONS_PER_WORKER numbers, so none takes this one: start another worker or raise the cap',
};
