import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QueueName } from '../../../infra/queue/queue-names.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import type { WebhookEventName } from '../events/webhook-event.catalogue.js';
import { type DrainJob, drainJob, retryJob } from './delivery-job.js';
import { DrainWakeMarks } from './drain-wake-marks.js';
import { LocalDrains } from './local-drains.js';
import { OutboxRepository, type QueuedDelivery } from './outbox.repository.js';

export type { WebhookEventName } from '../events/webhook-event.catalogue.js';

export interface OutboxEvent {
  event: WebhookEventName;
  /** The exact bytes POSTed and signed. */
  body: Buffer | string;
  /**
   * Idempotency: at most one delivery per (webhook, event, sourceKey); a second write is a no-op.
   * Null: the caller's transaction guarantees the event is written once (it writes it with its
   * source, a message it inserted): no repeat check, and a null in the key's unique index instead
   * of an entry at a random place of it.
   */
  sourceKey: string | null;
  /**
   * Write the deliveries held (not due) until `release(…, messageId, …)`: for a message whose
   * media is still downloading. `messageId` is required with it.
   */
  hold?: boolean;
  messageId?: string;
  /**
   * The channel of the number the event concerns, for the webhooks' `channels` filter; absent:
   * the event passes it (it names no channel).
   */
  channel?: 'scan' | 'meta';
  /** Whether it concerns a group chat, for `include_groups`; absent: no group notion (never dropped by it). */
  isGroup?: boolean;
}

/** The statement's row of an event (its body aside). */
const rowOf = (event: OutboxEvent) => ({
  event: event.event,
  sourceKey: event.sourceKey,
  messageId: event.hold ? (event.messageId ?? null) : null,
  held: event.hold === true,
  channel: event.channel ?? null,
  isGroup: event.isGroup ?? null,
});

// Delivery → webhook of the rows this process wrote, so `enqueue` needs no query in the common
// case. Bounded: entries of rolled-back writes are never consumed and fall out.
const REMEMBERED = 20_000;
// A retry's wake-up fires this much after the delivery's time (the claim takes only due rows).
const RETRY_SLACK_MS = 20;

/**
 * The transactional outbox (docs/contract.md#rules-that-hold-everywhere): events written in the caller's transaction, one
 * delivery per enabled webhook subscribed to the event; after the commit, a drain job per
 * endpoint with new due deliveries (not a job per delivery: the rows are the queue, the job only
 * wakes the endpoint's drain, and wake-ups of a busy endpoint coalesce). A wake-up that never got
 * queued (Redis away, process killed between commit and queueing) is queued by the sweeper.
 */
@Injectable()
export class WebhookOutbox {
  private readonly logger = new Logger('WebhookOutbox');
  private readonly webhookOf = new Map<string, string>();

  constructor(
    private readonly repository: OutboxRepository,
    private readonly local: LocalDrains,
    private readonly marks: DrainWakeMarks,
    @InjectQueue(QueueName.WebhookDelivery) private readonly queue: Queue<DrainJob>,
  ) {}

  /**
   * In the caller's transaction: the event, and one delivery per enabled webhook of the workspace
   * subscribed to `event`. One statement. Returns the ids of the new deliveries that are due
   * (none for a repeated source key, none when held).
   */
  async write(workspaceId: string, tx: SqlExecutor, event: OutboxEvent): Promise<string[]> {
    const rows = await this.repository.write(workspaceId, tx, {
      ...rowOf(event),
      body: typeof event.body === 'string' ? Buffer.from(event.body, 'utf8') : event.body,
    });
    const due = rows.filter((row) => row.status === 'pending');
    for (const row of due) this.remember(row.id, row.webhookId);
    return due.map((row) => row.id);
  }

  /**
   * `write` for many events (of any workspaces) in one statement, in the caller's transaction:
   * the due delivery ids of each event, by the event's index.
   */
  async writeMany(tx: SqlExecutor, events: readonly (OutboxEvent & { workspaceId: string })[]): Promise<string[][]> {
    const rows = await this.repository.writeMany(
      tx,
      events.map((event) => ({ ...rowOf(event), workspaceId: event.workspaceId, body: event.body })),
    );
    const due: string[][] = events.map(() => []);
    for (const row of rows) {
      if (row.status !== 'pending') continue;
      this.remember(row.id, row.webhookId);
      due[row.ord - 1]!.push(row.id);
    }
    return due;
  }

  /** After the commit: wakes the deliveries' endpoints. A failure is logged and left to the sweeper. */
  enqueue(workspaceId: string, deliveryIds: string[]): Promise<void> {
    return this.enqueueMany([{ workspaceId, ids: deliveryIds }]);
  }

  /** `enqueue` for the deliveries of several workspaces (a group commit's): one bulk add, a job per endpoint. */
  async enqueueMany(deliveries: readonly { workspaceId: string; ids: readonly string[] }[]): Promise<void> {
    const total = deliveries.reduce((sum, entry) => sum + entry.ids.length, 0);
    if (total === 0) return;
    try {
      const jobs: QueuedDelivery[] = [];
      for (const { workspaceId, ids } of deliveries) {
        const missing: string[] = [];
        for (const id of ids) {
          const webhookId = this.webhookOf.get(id);
          this.webhookOf.delete(id);
          if (webhookId === undefined) missing.push(id);
          else jobs.push({ id, webhookId, workspaceId });
        }
        if (missing.length) jobs.push(...(await this.repository.queued(workspaceId, missing)));
      }
      await this.wake(jobs);
    } catch (error) {
      this.logger.warn({ err: error, deliveries: total }, 'delivery jobs not queued; the sweeper will queue them');
    }
  }

  /**
   * In the caller's transaction: the held deliveries of a message's `event` become due, their
   * event's body rewritten by `finalBody` (e.g. with the stored media's address). Returns what
   * `enqueueQueued` must queue after the commit.
   */
  async release(
    workspaceId: string,
    tx: SqlExecutor,
    messageId: string,
    event: WebhookEventName,
    finalBody: (body: Buffer) => Buffer,
  ): Promise<QueuedDelivery[]> {
    const released: QueuedDelivery[] = [];
    for (const held of await this.repository.heldEvents(workspaceId, tx, messageId, event)) {
      released.push(...(await this.repository.release(workspaceId, tx, held.id, finalBody(held.body))));
    }
    return released;
  }

  /**
   * Wakes the drains of these deliveries' endpoints (release, sweeper): one job per endpoint, in
   * one bulk add; failures propagate.
   */
  async wake(deliveries: readonly QueuedDelivery[]): Promise<void> {
    const endpoints = new Map<string, DrainJob>();
    for (const delivery of deliveries) endpoints.set(delivery.webhookId, { workspaceId: delivery.workspaceId, webhookId: delivery.webhookId });
    await this.drain([...endpoints.values()]);
  }

  /**
   * Wakes the endpoints' drains: a drain running in this process takes the wake-up itself; an
   * endpoint whose drain job is known queued and not started yet needs nothing more
   * (DrainWakeMarks);
   * otherwise a drain job per endpoint, coalesced with any waiting or running one. Failures
   * propagate.
   */
  async drain(endpoints: readonly DrainJob[]): Promise<void> {
    const remote = endpoints.filter((endpoint) => !this.local.offer(endpoint.webhookId));
    if (remote.length === 0) return;
    const unmarked = new Set(await this.marks.mark(remote.map((endpoint) => endpoint.webhookId)));
    const jobs = remote.filter((endpoint) => unmarked.has(endpoint.webhookId));
    if (jobs.length === 0) return;
    const ids = jobs.map((endpoint) => endpoint.webhookId);
    try {
      await this.queue.addBulk(jobs.map(drainJob));
    } catch (error) {
      await this.marks.unmark(ids).catch(() => undefined);
      throw error;
    }
    // Failing to say so only costs the next wake-ups a job each.
    await this.marks.queued(ids).catch((error: unknown) => this.logger.warn({ err: error }, 'drain wake marks not set'));
  }

  /**
   * Wakes the endpoints' drains when these deliveries' retries are due (`at`, the time each row
   * holds), one delayed job per attempt. A failure is logged: the sweeper finds the deliveries
   * once they are overdue.
   */
  async retryAt(retries: readonly (QueuedDelivery & { attempt: number; at: Date })[]): Promise<void> {
    if (retries.length === 0) return;
    const now = Date.now();
    try {
      await this.queue.addBulk(retries.map((retry) => retryJob(retry, retry.id, retry.attempt, retry.at.getTime() - now + RETRY_SLACK_MS)));
    } catch (error) {
      this.logger.warn({ err: error, deliveries: retries.length }, 'retry jobs not queued; the sweeper will queue them');
    }
  }

  /** Like `enqueue` for released deliveries: a failure is logged and left to the sweeper. */
  async enqueueQueued(deliveries: readonly QueuedDelivery[]): Promise<void> {
    try {
      await this.wake(deliveries);
    } catch (error) {
      this.logger.warn({ err: error, deliveries: deliveries.length }, 'delivery jobs not queued; the sweeper will queue them');
    }
  }

  private remember(deliveryId: string, webhookId: string): void {
    if (this.webhookOf.size >= REMEMBERED) this.webhookOf.delete(this.webhookOf.keys().next().value!);
    this.webhookOf.set(deliveryId, webhookId);
  }
}
