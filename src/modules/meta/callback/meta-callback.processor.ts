import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../infra/config/app-config.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { inTransaction } from '../../inbox/ingest/sql-transaction.js';
import { MetaChatForwarding } from '../forwarding/meta-chat-forwarding.js';
import { MetaInboundHandler } from '../inbound/meta-inbound.handler.js';
import { changesOf } from './callback-payload.js';
import { CallbackRouter, type WorkspaceChanges } from './callback-router.js';
import { MetaCallbackRepository, type StoredCallback } from './meta-callback.repository.js';
import type { MetaCallbackJob } from './meta-callback.service.js';

/**
 * Processes a stored provider callback: routes every change of every entry to its workspace,
 * ingests messages and statuses, then forwards the payload as `meta.chat` once per workspace it
 * concerns and marks the callback processed, in one transaction. A job that runs again (a crash,
 * a retry) repeats only idempotent steps; a processed callback is skipped.
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
    const routed = await this.router.route(changesOf(parse(callback.body)));
    for (const { workspaceId, changes } of routed) {
      for (const change of changes) {
        if (change.field === 'messages') await this.inbound.handle(workspaceId, change.value, callback.receivedAt);
      }
    }
    await this.forward(callback, routed.filter((workspace) => workspace.forward));
  }

  private async forward(callback: StoredCallback, workspaces: WorkspaceChanges[]): Promise<void> {
    const sourceKey = `meta-callback:${callback.bodySha256}`;
    const written = await inTransaction(this.db, async (tx) => {
      const deliveries: [string, string[]][] = [];
      for (const { workspaceId } of workspaces) deliveries.push([workspaceId, await this.forwarding.write(workspaceId, tx, callback.body, sourceKey)]);
      await this.repository.finish(callback.id, tx);
      return deliveries;
    });
    for (const [workspaceId, ids] of written) {
      if (ids.length === 0) continue;
      // Committed: a failure here leaves the deliveries pending for the outbox's own sweeper.
      await this.forwarding.enqueue(workspaceId, ids).catch((error: unknown) => {
        this.logger.warn({ err: error, workspaceId }, 'meta.chat deliveries stored, not enqueued: the outbox sweeper will');
      });
    }
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<MetaCallbackJob> | undefined, error: Error): void {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    this.logger.error({ err: error, callbackId: job.data.callbackId }, 'provider callback not processed after every attempt: it stays stored');
  }
}

/** The stored bytes were checked at receipt; a payload that still fails to parse has no changes. */
function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
