import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { isTransientFailure } from '../../../infra/http/dependency-errors.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { InboxChangeHooks } from '../../inbox/changes/inbox-change-hooks.js';
import { InboxIngestService } from '../../inbox/ingest/inbox-ingest.service.js';
import { ChannelUpdatesService } from '../../inbox/ingest/channel-updates.service.js';
import { MessageStatusService } from '../../inbox/messages/message-status.service.js';
import { MessageUpdatesService } from '../../inbox/messages/message-updates.service.js';
import type { ConversationEntity } from '../../inbox/entities/conversation.entity.js';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import type { ScanHistoryBatch, ScanMessage, ScanReceipt } from '../driver/scan-driver.port.js';
import { type ScanDataEvent, ScanEventHandler } from '../session/scan-sessions.port.js';
import { encodeHistoryBatch, HISTORY_PURPOSE } from './history-batch.codec.js';
import type { HistorySyncJob } from './history-sync.processor.js';
import { LidLinkService } from './lid-link.service.js';
import { MEDIA_REF_PURPOSE, type MediaDownloadJob } from './media-download.processor.js';
import { ScanInboundRepository } from './scan-inbound.repository.js';
import { toInboundMessage } from './scan-message.mapper.js';

// The channel acknowledges a message to WhatsApp only once its event was handled (the session
// calls the event's `stored`): while Postgres is away it is retried (in order, holding this
// workspace's later events, none of them acknowledged); past the wait the event fails, and
// WhatsApp, never told, delivers the messages again on the next connection.
const STORE_WAIT_MS = 5 * 60_000;
const STORE_RETRY_MAX_MS = 5_000;

// How long the echo of our own send may wait for the send to record its channel id.
const ECHO_WAIT_MS = 3000;
const ECHO_POLL_MS = 50;

/**
 * The inbox side of a scan socket's data events, called in order by the process holding it.
 * - messages (live `notify` and the offline `append` queue): through `ingest()`. Messages the
 *   workspace sent (from the phone, or the echo of our own send) are stored as outbound without
 *   hooks, so no webhook or automation sees them; the Console still sees them live.
 * - media: the message is stored at once with an empty `media_url`; a `media-download` job
 *   fills it in, and only then are its webhooks sent (`mediaPending`).
 * - history: persisted and handed to the `history-sync` queue (bulk path).
 * - receipts: status moves forward only; LID mappings link contacts.
 * - edits, reactions, revokes: change the message they name (MessageUpdatesService), or wait for
 *   it when it is not stored yet; they are no messages and make no `scan.chat`.
 * One bad message is logged and skipped; it never stops the rest of the event. A message or
 * receipt that fails because Postgres is unreachable is retried with backoff for up to 5 minutes
 * (ingest is idempotent, so a retry after an ambiguous failure stores it once); then `handle`
 * rejects, so the event's messages stay unacknowledged to WhatsApp.
 */
@Injectable()
export class ScanInboundHandler extends ScanEventHandler {
  private readonly logger = new Logger('ScanInbound');

  constructor(
    private readonly ingest: InboxIngestService,
    private readonly statuses: MessageStatusService,
    private readonly messageUpdates: MessageUpdatesService,
    private readonly updates: ChannelUpdatesService,
    private readonly repository: ScanInboundRepository,
    private readonly lids: LidLinkService,
    private readonly encryption: EncryptionService,
    @InjectQueue(QueueName.HistorySync) private readonly historyQueue: Queue<HistorySyncJob>,
    @InjectQueue(QueueName.MediaDownload) private readonly mediaQueue: Queue<MediaDownloadJob>,
    private readonly changes: InboxChangeHooks,
  ) {
    super();
  }

  async handle(workspaceId: string, event: ScanDataEvent): Promise<void> {
    switch (event.type) {
      case 'messages':
        for (const message of event.messages) await this.guard(workspaceId, 'message', () => this.message(workspaceId, message));
        return;
      case 'history':
        return this.history(workspaceId, event.batch);
      case 'receipts':
        for (const receipt of event.receipts) await this.guard(workspaceId, 'receipt', () => this.receipt(workspaceId, receipt));
        return;
      case 'lid-mappings':
        return this.lids.link(workspaceId, event.mappings);
      case 'group-names':
        for (const { chatJid, name } of event.names) await this.guard(workspaceId, 'group name', () => this.renameGroup(workspaceId, chatJid, name));
        return;
      // Each with its chat and sender: it acts only on a message of that chat (and an edit or a
      // 1:1 revoke only on one of its sender's), whatever message id it names.
      case 'edits':
        for (const { externalId, content, ...source } of event.edits) {
          await this.guard(workspaceId, 'edit', () => this.messageUpdates.edit(workspaceId, 'scan', { ...source, targetExternalId: externalId, content }));
        }
        return;
      case 'reactions':
        for (const { externalId, emoji, ...source } of event.reactions) {
          await this.guard(workspaceId, 'reaction', () => this.messageUpdates.react(workspaceId, 'scan', { ...source, targetExternalId: externalId, emoji }));
        }
        return;
      case 'revokes':
        for (const { externalId, ...source } of event.revokes) {
          await this.guard(workspaceId, 'revoke', () => this.messageUpdates.revoke(workspaceId, 'scan', { ...source, targetExternalId: externalId }));
        }
        return;
    }
  }

  private async message(workspaceId: string, message: ScanMessage): Promise<void> {
    const inbound = toInboundMessage(message);
    if (message.fromMe) await this.awaitOwnSend(workspaceId, message.chatJid);
    // A media message's webhook waits for its file (the media job settles it), so the receiver
    // can fetch `media_url` as soon as it hears of the message.
    const ingested = await this.ingest.ingest(workspaceId, inbound, { hooks: !message.fromMe, mediaPending: message.media !== null });
    const stored = ingested.message;
    if (message.fromMe && ingested.created) await this.phoneSent(workspaceId, ingested);
    // Also for a repeat whose media never arrived (a crash between ingest and this line, or the
    // echo of media we sent as bytes): the reference insert and the job id are idempotent.
    if (message.media && stored.mediaUrl === '') {
      await this.repository.saveMediaRef(workspaceId, stored.id, this.encryption.encrypt(message.media.ref, MEDIA_REF_PURPOSE));
      await this.mediaQueue.add('download', { workspaceId, messageId: stored.id }, { jobId: `media-${stored.id}` });
    }
  }

  /**
   * The channel echoes what we send, possibly before the send has stored the channel id on its
   * pending row. Ingesting the echo then would show the message twice until the send resolves
   * the clash; waiting (briefly, only while a send to this chat is in flight) lets the echo
   * arrive as the repeat it is.
   */
  private async awaitOwnSend(workspaceId: string, chatJid: string): Promise<void> {
    const deadline = Date.now() + ECHO_WAIT_MS;
    while (Date.now() < deadline && (await this.repository.sendInFlight(workspaceId, chatJid))) {
      await new Promise((resolve) => setTimeout(resolve, ECHO_POLL_MS));
    }
  }

  /**
   * A message the number sent from the phone or another linked device, newly stored (live only:
   * history goes its own way; a redelivery or the echo of our own send is a repeat, `created`
   * false, and that send made its own `message.outbound`): `message.outbound` with source
   * `phone`. Its hooks write in a transaction of their own right after the message's, so the
   * ingest hot path (and its group commit) stays as it is; a crash between the two loses the event.
   */
  private async phoneSent(workspaceId: string, { message, conversation }: { message: MessageEntity; conversation: ConversationEntity }): Promise<void> {
    await this.changes.apply(
      workspaceId,
      'message.outbound',
      () => Promise.resolve(null),
      () => ({ kind: 'message.outbound', message, conversation, source: 'phone' }),
    );
  }

  private async history(workspaceId: string, batch: ScanHistoryBatch): Promise<void> {
    const sealed = this.encryption.encrypt(encodeHistoryBatch(batch), HISTORY_PURPOSE);
    const batchId = await this.repository.saveHistoryBatch(workspaceId, sealed);
    await this.historyQueue.add('batch', { workspaceId, batchId }, { jobId: `history-${batchId}` });
  }

  /** A group's new subject names its conversation (an unknown group opens none). */
  private async renameGroup(workspaceId: string, chatJid: string, name: string): Promise<void> {
    await this.updates.renameGroup(workspaceId, 'scan', chatJid, name);
  }

  private async receipt(workspaceId: string, receipt: ScanReceipt): Promise<void> {
    await this.statuses.updateStatus(workspaceId, 'scan', receipt.externalId, receipt.status);
  }

  private async guard(workspaceId: string, what: string, work: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + STORE_WAIT_MS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await work();
        return;
      } catch (error) {
        // Only a failure that running it again cannot fix is skipped (and its receipt sent): a
        // deadlock or a timeout is tried again like an unreachable database.
        if (!isTransientFailure(error)) {
          this.logger.error({ err: error, workspaceId }, `scan ${what} not processed`);
          return;
        }
        if (Date.now() >= deadline) throw new Error(`scan ${what} not stored: the database stayed unreachable`, { cause: error });
        if (attempt === 1) this.logger.warn({ workspaceId }, `scan ${what} waits for the database: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(STORE_RETRY_MAX_MS, 100 * 2 ** attempt)));
      }
    }
  }
}
