import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type Job, UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../infra/config/app-config.js';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { readPlayingTimeS } from '../../../infra/media/media-formats.js';
import { AddressRefusedError } from '../../../infra/net/guarded-lookup.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { InboxEvents } from '../../inbox/inbox-events.service.js';
import { ChannelUpdatesService } from '../../inbox/ingest/channel-updates.service.js';
import { isTimedKind, storedFileName } from '../../inbox/message-kinds.js';
import { IngestHooks } from '../../inbox/ingest/ingest-hooks.js';
import { inTransaction, type SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { mediaFileName, mediaPath } from '../../media/media-file-name.js';
import { MEDIA_STORE, type MediaStore } from '../../media/media-store.port.js';
import { SCAN_DRIVER, type ScanDriver } from '../driver/scan-driver.port.js';
import { ScanInboundRepository } from './scan-inbound.repository.js';

/** Payload of a `media-download` job: ids only (the media key stays encrypted in Postgres). */
export interface MediaDownloadJob {
  workspaceId: string;
  messageId: string;
}

/** Purpose of the key that seals media references at rest. */
export const MEDIA_REF_PURPOSE = 'scan-media-ref';

/**
 * Fetches a scan message's media through the driver (no open socket needed), stores it, and
 * gives the message its `media_url`. Idempotent: the file name comes from the message id (a
 * retry overwrites the same file) and a message whose reference is gone is done already. The
 * outcome (stored, or given up after the last attempt) is recorded in one transaction with what
 * the ingest hooks do about it (`mediaSettled`: the webhooks held for the file go out).
 */
@Processor(QueueName.MediaDownload)
export class MediaDownloadProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('MediaDownload');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly hooks: IngestHooks,
    private readonly repository: ScanInboundRepository,
    private readonly inbox: ChannelUpdatesService,
    private readonly encryption: EncryptionService,
    private readonly events: InboxEvents,
    @Inject(SCAN_DRIVER) private readonly driver: ScanDriver,
    @Inject(MEDIA_STORE) private readonly store: MediaStore,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.worker.concurrency = this.config.mediaDownloadConcurrency;
  }

  async process(job: Job<MediaDownloadJob>): Promise<void> {
    const { workspaceId, messageId } = job.data;
    const pending = await this.repository.pendingMedia(workspaceId, messageId);
    if (!pending) return;
    // Stored already: a redelivery of the message saved its reference again after an earlier job
    // had stored the file (WhatsApp delivers again what was not acknowledged). Its webhooks went
    // out with that job; a second download would send them twice.
    if (pending.message.mediaUrl !== '') return this.repository.dropMediaRef(workspaceId, messageId);
    const ref = this.encryption.decryptString(pending.ref, MEDIA_REF_PURPOSE);
    // Through the number's egress proxy, as its socket (chat/proxy).
    const bytes = await this.driver.downloadMedia(ref, workspaceId).catch((error: unknown) => {
      // The message names a host the address policy refuses: every attempt would be refused again.
      throw error instanceof AddressRefusedError ? new UnrecoverableError(`media host refused: ${error.message}`) : error;
    });
    const { message } = pending;
    const file = mediaFileName(message.id, message.mimeType);
    await this.store.put(workspaceId, file, bytes, {
      mimeType: message.mimeType || 'application/octet-stream',
      fileName: storedFileName(message.messageType, message.fileName),
    });
    // WhatsApp's clients usually give a timed file's `seconds`; when this one did not, the file tells it.
    const durationS = isTimedKind(message.messageType) && !(Number(message.durationS) > 0) ? readPlayingTimeS(bytes) : 0;
    const stored = { url: mediaPath(workspaceId, file), fileSize: bytes.length, mimeType: '', durationS };
    const updated = await this.settle(workspaceId, async (tx) => {
      // Issued together: the transaction's statements are pipelined, so the two cost one round trip.
      const [, recorded] = await Promise.all([
        this.repository.dropMediaRef(workspaceId, message.id, tx),
        this.inbox.mediaStored(workspaceId, message.id, stored, tx),
      ]);
      return recorded;
    });
    if (updated) await this.events.messageUpdated(workspaceId, updated);
  }

  /** Records the media's outcome and runs the hooks in its transaction, then their after-commit part. */
  private async settle(workspaceId: string, record: (tx: SqlExecutor) => Promise<MessageEntity | null>): Promise<MessageEntity | null> {
    const message = await inTransaction(this.db, async (tx) => {
      const settled = await record(tx);
      if (settled) await this.hooks.mediaSettled({ workspaceId, message: settled, tx });
      return settled;
    });
    if (message) await this.hooks.afterMediaSettled({ workspaceId, message });
    return message;
  }

  /**
   * After the last attempt (or the first refused by the address policy) the message keeps an empty
   * `media_url`; its reference is dropped and what waited for the file goes out without it.
   */
  @OnWorkerEvent('failed')
  async onFailed(job: Job<MediaDownloadJob> | undefined, error: Error): Promise<void> {
    if (!job || (job.attemptsMade < (job.opts.attempts ?? 1) && !(error instanceof UnrecoverableError))) return;
    this.logger.error({ err: error, workspaceId: job.data.workspaceId, messageId: job.data.messageId }, 'media download failed for good');
    const { workspaceId, messageId } = job.data;
    await this.settle(workspaceId, (tx) => this.repository.mediaGivenUp(workspaceId, messageId, tx)).catch((failure: unknown) =>
      this.logger.error({ err: failure, workspaceId, messageId }, 'giving up a media download not recorded; its webhooks go out when the hold expires'),
    );
  }
}
