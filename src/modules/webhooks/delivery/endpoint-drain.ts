import type { DrainJob } from '../outbox/delivery-job.js';
import type { LocalDrains } from '../outbox/local-drains.js';
import type { QueuedDelivery } from '../outbox/outbox.repository.js';
import type { WebhookOutbox } from '../outbox/webhook-outbox.service.js';
import type { DeliveryAttemptService } from './delivery-attempt.service.js';
import type { DeliveryRepository } from './delivery.repository.js';
import type { DeliveryTarget } from './delivery.types.js';

/** The drain's knobs (see WebhookDeliveryProcessor for the values and why). */
export interface DrainLimits {
  /** Deliveries per claim. */
  batch: number;
  /** Attempts in flight at once (WEBHOOK_ENDPOINT_CONCURRENCY). */
  lanes: number;
  /** How long a claim holds; a claimed delivery not started within `startWithinMs` is given back. */
  claimMs: number;
  startWithinMs: number;
  /** An idle drain stays this long for a wake-up from this process before it ends. */
  lingerMs: number;
  /** The drain hands over to a new job after this long or this many attempts. */
  budgetMs: number;
  budgetCount: number;
}

export interface DrainDeps {
  repository: DeliveryRepository;
  attempts: DeliveryAttemptService;
  outbox: WebhookOutbox;
  local: LocalDrains;
}

/**
 * One run of an endpoint's drain. Up to `lanes` attempts in flight, started in order of the
 * claimed deliveries (oldest first); a lane that finds nothing claimed left claims the next batch
 * (one claim at a time). No attempt starts after a failure or past the budget. The drain claims
 * again while its last claim came back full or a wake-up arrived since it started (new deliveries
 * committed in this process: LocalDrains); it ends when neither holds, no attempt is in flight,
 * and it has had nothing to do for `lingerMs` (a busy endpoint's next deliveries then usually
 * come to the running drain instead of costing a BullMQ job each time). Whatever it claimed and
 * did not start is unclaimed at the end.
 */
export class EndpointDrain {
  private readonly queue: { target: DeliveryTarget; claimedAt: number }[] = [];
  /** Recordings not settled yet (awaited when the drain ends; settled ones are dropped, a drain makes up to 2000). */
  private readonly records = new Set<Promise<unknown>>();
  private readonly idle: (() => void)[] = [];
  private readonly started = Date.now();
  private claiming: Promise<void> | null = null;
  /** Claim again: the last claim was full, or a wake-up came after it started. */
  private more = true;
  private inFlight = 0;
  /** When the drain last had something to do (claimed rows, an attempt ended). */
  private busyAt = Date.now();
  private lanesRunning = 0;
  /** Every lane has ended: the drain claims no more. */
  private ended = false;
  private attempted = 0;
  /** No new attempt: a failure, the endpoint disabled, or the budget spent. */
  private stopped = false;
  private handOver = false;
  /** A final failure (no retry of its own will wake the endpoint). */
  private finalFailure = false;
  private readonly wake = (): boolean => {
    if (this.stopped || this.ended) return false;
    this.more = true;
    this.nudge();
    return true;
  };

  constructor(
    private readonly endpoint: DrainJob,
    private readonly limits: DrainLimits,
    private readonly deps: DrainDeps,
  ) {}

  async run(): Promise<void> {
    this.deps.local.register(this.endpoint.webhookId, this.wake);
    this.lanesRunning = this.limits.lanes;
    const lanes = await Promise.allSettled(Array.from({ length: this.limits.lanes }, () => this.lane()));
    this.deps.local.unregister(this.endpoint.webhookId, this.wake);
    await Promise.all(this.records);
    const left = await this.deps.repository.unclaim(
      this.endpoint.workspaceId,
      this.queue.splice(0).map((entry) => entry.target.id),
    );
    const failed = lanes.find((lane) => lane.status === 'rejected');
    // An unexpected error (the database away): the job fails and BullMQ runs it again later.
    if (failed) throw failed.reason;
    // Handed over, or stopped by a final failure with deliveries left (no retry will wake them).
    if (this.handOver || (this.finalFailure && left.length > 0)) await this.deps.outbox.drain([this.endpoint]);
  }

  private async lane(): Promise<void> {
    try {
      await this.work();
    } catch (error) {
      this.stopped = true;
      throw error;
    } finally {
      // In the same step as the last lane's decision to end: a wake-up after it is refused (it becomes a job).
      if (--this.lanesRunning === 0) this.ended = true;
      this.nudge();
    }
  }

  private async work(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const next = this.queue[0];
      if (next && Date.now() - next.claimedAt > this.limits.startWithinMs) {
        // Claimed too long ago to start now (a slow endpoint): give the rest back, claim afresh.
        const stale = this.queue.splice(0).map((entry) => entry.target.id);
        await this.deps.repository.unclaim(this.endpoint.workspaceId, stale);
        this.more = true;
        continue;
      }
      if (next) {
        this.queue.shift();
        await this.attempt(next.target);
        continue;
      }
      if (this.claiming) await this.claiming;
      else if (this.more) await (this.claiming = this.claim().finally(() => (this.claiming = null)));
      else if (this.inFlight > 0) await this.idleFor(null);
      else if (Date.now() - this.busyAt < this.limits.lingerMs) await this.idleFor(this.limits.lingerMs - (Date.now() - this.busyAt));
      else return;
    }
  }

  private async claim(): Promise<void> {
    this.more = false;
    const batch = await this.deps.repository.claim(this.endpoint.workspaceId, this.endpoint.webhookId, this.limits.batch, this.limits.claimMs);
    if (batch.length === this.limits.batch) this.more = true;
    if (batch.length > 0 && !batch[0]!.enabled) {
      this.stopped = true;
      await this.deps.repository.failWaiting(this.endpoint.workspaceId, this.endpoint.webhookId, 'webhook disabled');
      return;
    }
    const claimedAt = Date.now();
    if (batch.length > 0) this.busyAt = claimedAt;
    for (const target of batch) this.queue.push({ target, claimedAt });
  }

  private async attempt(target: DeliveryTarget): Promise<void> {
    this.inFlight++;
    this.attempted++;
    if (Date.now() - this.started > this.limits.budgetMs || this.attempted >= this.limits.budgetCount) {
      // Others' turn: this is the last attempt this drain starts; a new job goes on.
      this.stopped = true;
      this.handOver = true;
    }
    try {
      const outcome = await this.deps.attempts.scheduled(target);
      if (outcome.verdict.outcome !== 'delivered') {
        this.stopped = true;
        if (outcome.verdict.outcome === 'failed') this.finalFailure = true;
      }
      const retryAt = outcome.nextAttemptAt;
      const recorded = retryAt
        ? outcome.recorded.then(async (done) => {
            if (done) await this.deps.outbox.retryAt([{ ...delivery(target), attempt: target.attempts + 1, at: retryAt }]);
          })
        : outcome.recorded;
      // Awaited when the drain ends (a rejection is thrown there); meanwhile it must not count as unhandled.
      this.records.add(recorded);
      recorded.then(
        () => this.records.delete(recorded),
        () => undefined,
      );
    } finally {
      this.inFlight--;
      this.busyAt = Date.now();
      this.nudge();
    }
  }

  /** Waits for a nudge, or at most `ms` (null: no limit). */
  private idleFor(ms: number | null): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer =
        ms === null
          ? undefined
          : setTimeout(() => {
              const index = this.idle.indexOf(done);
              if (index >= 0) this.idle.splice(index, 1);
              resolve();
            }, ms);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.idle.push(done);
    });
  }

  /** Idle lanes look again (work claimed, a wake-up, an attempt ended). */
  private nudge(): void {
    if (this.idle.length === 0) return; // the common case: every lane busy (nothing to allocate)
    for (const resolve of this.idle.splice(0)) resolve();
  }
}

const delivery = (target: DeliveryTarget): QueuedDelivery => ({ id: target.id, webhookId: target.webhookId, workspaceId: target.workspaceId });
