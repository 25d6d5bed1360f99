import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { LiveEventsService } from '../../events/live-events.service.js';
import { InboxIngestService } from '../../inbox/ingest/inbox-ingest.service.js';
import { SyncProgressStore } from '../session/sync-progress.store.js';
import { decodeHistoryBatch, HISTORY_PURPOSE } from './history-batch.codec.js';
import { LidLinkService } from './lid-link.service.js';
import { ScanInboundRepository } from './scan-inbound.repository.js';
import { toInboundMessage } from './scan-message.mapper.js';

/** Payload of a `history-sync` job: ids only (the batch waits, encrypted, in Postgres). */
export interface HistorySyncJob {
  workspaceId: string;
  batchId: string;
}

/**
 * Ingests one history batch through the bulk path: no hooks (no webhooks, no automations), no
 * per-message live events, not counted unread. Then moves the sync state on and publishes
 * `sync.progress`. Idempotent: a batch already ingested is gone, and a re-run after a crash
 * stores nothing new, so it adds nothing to the counts (they count what was stored).
 */
@Processor(QueueName.HistorySync)
export class HistorySyncProcessor extends WorkerHost {
  private readonly logger = new Logger('HistorySync');

  constructor(
    private readonly repository: ScanInboundRepository,
    private readonly encryption: EncryptionService,
    private readonly ingest: InboxIngestService,
    private readonly lids: LidLinkService,
    private readonly progress: SyncProgressStore,
    private readonly live: LiveEventsService,
  ) {
    super();
  }

  async process(job: Job<HistorySyncJob>): Promise<void> {
    const { workspaceId, batchId } = job.data;
    const sealed = await this.repository.historyBatch(workspaceId, batchId);
    if (sealed === null) return;
    const batch = decodeHistoryBatch(this.encryption.decryptString(sealed, HISTORY_PURPOSE));
    // Mappings first: contacts that already exist get both ids before the batch links to them.
    await this.lids.link(workspaceId, batch.lidMappings);
    const inputs = batch.messages.map((message) => toInboundMessage(message, batch.chatNames[message.chatJid] ?? null));
    const result = await this.ingest.ingestBatch(workspaceId, inputs, { countUnread: false });
    const state = await this.progress.advance(workspaceId, {
      progress: batch.isLatest ? 100 : batch.progress,
      chats: result.conversationsCreated,
      messages: result.inserted,
      done: batch.isLatest,
    });
    await this.live.publish(workspaceId, 'sync.progress', {
      progress: state.progress,
      chats: state.chats,
      messages: state.messages,
      done: state.state === 'done',
    });
    await this.repository.deleteHistoryBatch(workspaceId, batchId);
    this.logger.log({ workspaceId, received: result.received, inserted: result.inserted, progress: state.progress }, 'history batch ingested');
  }
}
