import { Injectable } from '@nestjs/common';

/**
 * The endpoint drains running in this process, so a wake-up for one of them needs no BullMQ job:
 * the outbox hands it to the running drain, which claims again before it ends. Registration and
 * the drain's decision to end happen in one synchronous step (see EndpointDrain), so a wake-up
 * is either taken by a drain that will still claim after it, or refused (then it becomes a job).
 * Other processes' drains are not seen here: their endpoints get a job, which BullMQ coalesces.
 */
@Injectable()
export class LocalDrains {
  private readonly running = new Map<string, () => boolean>();

  /** While `wake` is registered, wake-ups of the endpoint go to it (it returns false to refuse). */
  register(webhookId: string, wake: () => boolean): void {
    this.running.set(webhookId, wake);
  }

  unregister(webhookId: string, wake: () => boolean): void {
    if (this.running.get(webhookId) === wake) this.running.delete(webhookId);
  }

  /** True when a drain of the endpoint running here took the wake-up. */
  offer(webhookId: string): boolean {
    return this.running.get(webhookId)?.() ?? false;
  }
}
