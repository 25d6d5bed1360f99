import { createHash } from 'node:crypto';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Job, UnrecoverableError } from 'bullmq';
import { AppConfig } from '../../../infra/config/app-config.js';
import { readPlayingTimeS } from '../../../infra/media/media-formats.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { InboxEvents } from '../../inbox/inbox-events.service.js';
import { ChannelUpdatesService } from '../../inbox/ingest/channel-updates.service.js';
import { isTimedKind, storedFileName } from '../../inbox/message-kinds.js';
import { mediaFileName, mediaPath } from '../../media/media-file-name.js';
import { MEDIA_STORE, type MediaStore } from '../../media/media-store.port.js';
import { GraphApi } from '../graph/graph-api.js';
import { GraphApiError, INVALID_TOKEN_CODE } from '../graph/graph-error.js';
import { MetaSettingsService } from '../settings/meta-settings.service.js';
import { MetaInboundRepository } from './meta-inbound.repository.js';

/** Payload of a `meta-media` job: ids only (the media id is the provider's). */
export interface MetaMediaJob {
  workspaceId: string;
  messageId: string;
  mediaId: string;
}

export const mediaJobId = (messageId: string): string => `meta-media-${messageId}`;

// Provider refusals that a retry cannot fix: a media id that expired or never was, a bad request.
const isFinal = (error: unknown): boolean =>
  error instanceof GraphApiError && error.status >= 400 && error.status < 500 && error.status !== 429 && error.body.is_transient !== true;

/**
 * Fetches an inbound file by its media id with the workspace's token (`GET /{media-id}` → a
 * short-lived URL, downloaded with the same token), checks its SHA-256, stores it and gives the
 * message its `media_url` (and an audio's, voice note's or video's playing time, read from the
 * file: the provider sends none). Idempotent: a message that has its file is done.
 */
@Processor(QueueName.MetaMedia)
export class MetaMediaProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('MetaMedia');

  constructor(
    private readonly config: AppConfig,
    private readonly settings: MetaSettingsService,
    private readonly repository: MetaInboundRepository,
    private readonly inbox: ChannelUpdatesService,
    private readonly graph: GraphApi,
    private readonly events: InboxEvents,
    @Inject(MEDIA_STORE) private readonly store: MediaStore,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (this.config.runsWorkers) this.worker.concurrency = this.config.mediaDownloadConcurrency;
  }

  async process(job: Job<MetaMediaJob>): Promise<void> {
    const { workspaceId, messageId, mediaId } = job.data;
    const message = await this.repository.message(workspaceId, messageId);
    if (!message || message.mediaUrl !== '') return;
    const credentials = await this.settings.credentials(workspaceId);
    if (!credentials) return; // the number was disconnected meanwhile: nothing to fetch with
    try {
      const info = await this.graph.mediaInfo(credentials.token, mediaId, credentials.phoneNumberId);
      if (!info.url) throw new UnrecoverableError('the provider answered no media url');
      const { data, contentType } = await this.graph.downloadMedia(credentials.token, info.url);
      if (info.sha256 && !hashMatches(data, info.sha256)) throw new Error('downloaded media does not match its SHA-256');
      const mimeType = message.mimeType || info.mime_type || contentType || 'application/octet-stream';
      const file = mediaFileName(message.id, mimeType);
      await this.store.put(workspaceId, file, data, { mimeType, fileName: storedFileName(message.messageType, message.fileName) });
      // The provider's webhooks carry no playing time: the file tells it.
      const durationS = isTimedKind(message.messageType) && !(Number(message.durationS) > 0) ? readPlayingTimeS(data) : 0;
      const updated = await this.inbox.mediaStored(workspaceId, message.id, { url: mediaPath(workspaceId, file), fileSize: data.length, mimeType, durationS });
      if (updated) await this.events.messageUpdated(workspaceId, updated);
    } catch (error) {
      if (error instanceof GraphApiError && error.code === INVALID_TOKEN_CODE) await this.settings.tokenRefused(workspaceId, error.message);
      if (isFinal(error)) throw new UnrecoverableError((error as Error).message);
      throw error;
    }
  }

  /** After the last attempt the message keeps an empty `media_url`. */
  @OnWorkerEvent('failed')
  onFailed(job: Job<MetaMediaJob> | undefined, error: Error): void {
    if (!job || (job.attemptsMade < (job.opts.attempts ?? 1) && !(error instanceof UnrecoverableError))) return;
    this.logger.error({ err: error, workspaceId: job.data.workspaceId, messageId: job.data.messageId }, 'cloud media download failed for good');
  }
}

/** The provider's SHA-256 comes as hex or base64, depending on where it is read. */
function hashMatches(data: Buffer, expected: string): boolean {
  const digest = createHash('sha256').update(data).digest();
  return expected.toLowerCase() === digest.toString('hex') || expected === digest.toString('base64');
}
