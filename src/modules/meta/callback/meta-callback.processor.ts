import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../infra/config/app-config.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { inTransaction } from '../../inbox/ingest/sql-transaction.js';
import { forwardKey, MetaChatForwarding } from '../forwarding/meta-chat-forwarding.js';
import { MetaInboundHandler } from '../inbound/meta-inbound.handler.js';
import { MetaTemplateUpdates } from '../templates/meta-template-updates.js';
import { type CallbackChange, changesOf, parsePayload } from './callback-payload.js';
import { CallbackRouter, type WorkspaceChanges } from './callback-router.js';
import { MetaCallbackRepository, type StoredCallback } from './meta-callback.repository.js';
import type { MetaCallbackJob } from './meta-callback.service.js';

/**
 * Processes a stored provider callback: routes every change of every entry to its workspace,
 * ingests messages and statuses, applies template status and quality updates, then forwards the
 * payload as `meta.chat` once per workspace it concerns and marks the callback processed, in one
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
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.worker.concurrency = this.config.workerConcurrency;
  }

  async process(job: Job<MetaCallbackJob>): Promise<void> {
    const callback = await this.repository.pending(job.data.callbackId);
    if (!callback) return;
    const routed = await this.router.route(changesOf(parsePayload(callback.body)));
    for (const { workspaceId, changes } of routed) {
      for (const change of changes) await this.apply(workspaceId, change, callback.receivedAt);
    }
    await this.forward(callback, routed.filter((workspace) => workspace.forward));
  }

  private async apply(workspaceId: string, change: CallbackChange, received: Date): Promise<void> {
    if (change.field === 'messages') await this.inbound.handle(workspaceId, change.value, received);
    else await this.templateUpdates.apply(workspaceId, change);
  }

  private async forward(callback: StoredCallback, workspaces: WorkspaceChanges[]): Promise<void> {
    const sourceKey = forwardKey(callback.bodySha256);
    const written = await inTransaction(this.db, async (tx) => {
      const deliveries: [string, string[]][] = [];
      for (const { workspaceId } of workspaces) deliveries.push([workspaceId, await this.forwarding.write(workspaceId, tx, callback.body, sourceKey)]);
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
