import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../infra/config/app-config.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { inTransaction } from '../../../infra/database/sql-transaction.js';
import { forwardKey, MetaChatForwarding } from '../forwarding/meta-chat-forwarding.js';
import { MetaInboundHandler } from '../inbound/meta-inbound.handler.js';
import { MetaTemplateUpdates } from '../templates/meta-template-updates.js';
import { type CallbackChange, changesOf, parsePayload } from './callback-payload.js';
import { CallbackRouter } from './callback-router.js';
import { splitCallback } from './callback-split.js';
import { MetaCallbackMetrics } from './meta-callback.metrics.js';
import { MetaCallbackRepository, type StoredCallback } from './meta-callback.repository.js';
import type { MetaCallbackJob } from './meta-callback.service.js';

/**
 * Processes a stored provider callback: routes every change of every entry to its workspace,
 * ingests messages and statuses, applies template status and quality updates, then forwards each
 * workspace it concerns its own part of the payload as `meta.chat` (the exact bytes when the
 * whole callback is its own; `splitCallback`) and marks the callback processed, in one
 * transaction. A job that runs again (a crash, a retry) repeats only idempotent steps; a
 * processed callback is skipped.
 */
@Processor(QueueName.MetaCallback)
export class MetaCallbackProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('MetaCallback');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly repository: MetaCallbackRepository,
    private readonly router: CallbackRouter,
    private readonly inbound: MetaInboundHandler,
    private readonly templateUpdates: MetaTemplateUpdates,
    private readonly forwarding: MetaChatForwarding,
    private readonly metrics: MetaCallbackMetrics,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.worker.concurrency = this.config.workerConcurrency;
  }

  async process(job: Job<MetaCallbackJob>): Promise<void> {
    const callback = await this.repository.pending(job.data.callbackId);
    if (!callback) return;
    const { workspaces, unrouted } = await this.router.route(changesOf(parsePayload(callback.body)));
    for (const { workspaceId, changes } of workspaces) {
      for (const change of changes) await this.apply(workspaceId, change, callback.receivedAt);
    }
    // Cut before the transaction: a body that does not split fails the job, and the callback stays stored.
    const bodies = splitCallback(callback.body, new Map(workspaces.filter((w) => w.forward).map((w) => [w.workspaceId, w.share])));
    await this.forward(callback, bodies);
    this.metrics.counted(unrouted);
  }

  private async apply(workspaceId: string, change: CallbackChange, received: Date): Promise<void> {
    if (change.field === 'messages') await this.inbound.handle(workspaceId, change.value, received);
    else await this.templateUpdates.apply(workspaceId, change);
  }

  /** Every workspace's part, keyed by the callback's hash: written once per workspace, with the callback marked processed. */
  private async forward(callback: StoredCallback, bodies: Map<string, Buffer>): Promise<void> {
    const sourceKey = forwardKey(callback.bodySha256);
    const written = await inTransaction(this.db, async (tx) => {
      const deliveries: [string, string[]][] = [];
      for (const [workspaceId, body] of bodies) deliveries.push([workspaceId, await this.forwarding.write(workspaceId, tx, body, sourceKey)]);
      await this.repository.finish(callback.id, tx);
      return deliveries;
    });
    // Committed: a delivery whose job is not queued now is queued by the outbox's sweeper.
    for (const [workspaceId, ids] of written) await this.forwarding.enqueue(workspaceId, ids);
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<MetaCallbackJob> | undefined, error: Error): void {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    this.logger.error({ err: error, callbackId: job.data.callbackId }, 'provider callback not processed after every attempt: it stays stored');
  }
}
