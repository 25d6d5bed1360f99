import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { BatchIngestRepository } from './batch-ingest.repository.js';
import { ContactMergeService } from './contact-merge.service.js';
import { type InboundMessage, type NormalizedInbound, normalizeInbound } from './inbound-message.js';
import { type IngestHook, IngestHooks } from './ingest-hooks.js';
import { IngestMetrics } from './ingest.metrics.js';
import { IngestRepository, SPLIT_CONTACT } from './ingest.repository.js';
import { RetryIngest, withRetry } from './retry.js';
import { inTransaction, onConnection, type SqlExecutor } from './sql-transaction.js';

export interface IngestResult {
  /** False when the channel message id was already stored: nothing changed, nothing was emitted. */
  created: boolean;
  message: MessageEntity;
  conversation: ConversationEntity;
}

export interface BatchResult {
  /** Messages received, newly stored, and already stored (or repeated within the batch). */
  received: number;
  inserted: number;
  duplicates: number;
  /** Conversations created by this batch. */
  conversationsCreated: number;
}

export interface IngestOptions {
  /**
   * Run the ingest hooks (webhooks, automations). Default true. False for a message the workspace
   * sent itself (from the phone, or the channel's echo of our own send): the contract never sends
   * those as events. Live events are published either way, so the Console shows the message.
   */
  hooks?: boolean;
  /**
   * The message's media is downloaded after ingest: hooks hold what must show it (the webhook's
   * `media_url`) until the media job reports through `IngestHooks.mediaSettled`.
   */
  mediaPending?: boolean;
}

export interface BatchOptions {
  /** Count new inbound messages as unread (default true, like `ingest`). */
  countUnread?: boolean;
}

/** What one attempt of the live path wrote, and the conversations a contact merge moved. */
interface Written {
  result: IngestResult;
  relinked: ConversationEntity[];
}

// Rows per INSERT statement. Postgres accepts far more through arrays; this keeps one statement's
// memory and lock time modest while amortising the round trip.
const CHUNK = 5000;

/**
 * The channel-neutral ingest pipeline (architecture.md, "Data flow"): contact, conversation and
 * message in one transaction, idempotent on the channel message id.
 */
@Injectable()
export class InboxIngestService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly repository: IngestRepository,
    private readonly batches: BatchIngestRepository,
    private readonly merges: ContactMergeService,
    private readonly hooks: IngestHooks,
    private readonly events: InboxEvents,
    // Optional so benchmarks can build the service by hand without a metrics registry.
    @Optional() private readonly metrics?: IngestMetrics,
  ) {}

  /**
   * Live path: one message, with hooks and live events when (and only when) it is new. Without
   * transactional hooks this is one statement on one connection (atomic by itself); with them,
   * that statement and the hooks share one transaction. A message naming a person known as two
   * contacts (phone-only and LID-only) merges them first, in one transaction with the message.
   */
  async ingest(workspaceId: string, input: InboundMessage, options: IngestOptions = {}): Promise<IngestResult> {
    const message = normalizeInbound(input);
    const hooks = options.hooks ?? true;
    const mediaPending = options.mediaPending === true;
    // The hooks that write in the ingest transaction for this workspace; none: no transaction.
    const participants = hooks ? await this.hooks.participants(workspaceId) : [];
    const { result, relinked } = await withRetry(async (): Promise<Written> => {
      const run = participants.length ? inTransaction : onConnection;
      const written = await run(this.db, (tx) => this.write(workspaceId, message, tx, false, participants, mediaPending));
      if (written !== SPLIT_CONTACT) return { result: written, relinked: [] };
      return inTransaction(this.db, (tx) => this.mergeAndWrite(workspaceId, message, tx, participants, mediaPending));
    });
    this.metrics?.live(message.chat.channel, result.created);
    if (result.created) {
      if (hooks) await this.hooks.afterCommit({ workspaceId, message: result.message, conversation: result.conversation, mediaPending });
      // Live events are not awaited: the stream is best effort (failures are logged), and a slow or
      // unreachable Redis must not hold up ingestion. Their order is kept all the same: every
      // publish goes out, in call order, on the one shared Redis connection.
      void this.events.messageCreated(workspaceId, result.message, result.conversation);
    }
    // Conversations a merge moved to the kept contact (the message's own was just published).
    for (const conversation of relinked) {
      if (conversation.id !== result.conversation.id) void this.events.conversationUpdated(workspaceId, conversation);
    }
    return result;
  }

  /** One attempt on `tx`; nothing written when it answers SPLIT_CONTACT (unless `merged`). */
  private async write(
    workspaceId: string,
    message: NormalizedInbound,
    tx: SqlExecutor,
    merged: boolean,
    participants: readonly IngestHook[],
    mediaPending: boolean,
  ): Promise<IngestResult | typeof SPLIT_CONTACT> {
    const stored = await this.repository.ingest(workspaceId, message, tx, { merged });
    if (stored === null) throw new RetryIngest();
    if (stored === SPLIT_CONTACT || !stored.created) return stored;
    if (message.chat.contact && stored.conversation.contactId === null) await this.linkContact(workspaceId, message, stored, tx);
    await this.hooks.inTransaction({ workspaceId, tx, message: stored.message, conversation: stored.conversation, mediaPending }, participants);
    return stored;
  }

  /**
   * The message names a person known as two contacts: merge them, then store the message, in one
   * transaction. A repeat must change nothing, so a stored message merges nothing.
   */
  private async mergeAndWrite(
    workspaceId: string,
    message: NormalizedInbound,
    tx: SqlExecutor,
    participants: readonly IngestHook[],
    mediaPending: boolean,
  ): Promise<Written> {
    const repeat = await this.repository.findStored(workspaceId, message.chat.channel, message.externalId, tx);
    if (repeat) return { result: repeat, relinked: [] };
    const relinked = await this.merges.mergeSplit(workspaceId, message.chat.contact, tx);
    const result = await this.write(workspaceId, message, tx, true, participants, mediaPending);
    if (result === SPLIT_CONTACT) throw new Error('ingest reported a split contact after merging');
    return { result, relinked };
  }

  /**
   * A concurrent ingest inserted the same person first, so the statement could not see the
   * contact. The message is stored (and maybe committed), so this must not retry the ingest:
   * link the now visible contact, a few times at most; the next message would link it anyway.
   */
  private async linkContact(workspaceId: string, message: NormalizedInbound, stored: IngestResult, tx: SqlExecutor): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await this.repository.upsertChatRow(workspaceId, message.chat, message.timestamp, tx);
      if (row && row.contactId) {
        stored.conversation.contactId = row.contactId;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2 * (attempt + 1)));
    }
  }

  /**
   * History path: thousands of rows per statement, one transaction per call, no hooks and no
   * live events per message; conversation aggregates move once per chunk.
   */
  async ingestBatch(workspaceId: string, inputs: InboundMessage[], options: BatchOptions = {}): Promise<BatchResult> {
    const messages = inputs.map(normalizeInbound);
    const byChannel = new Map<ChannelName, NormalizedInbound[]>();
    for (const message of messages) {
      const list = byChannel.get(message.chat.channel) ?? [];
      list.push(message);
      byChannel.set(message.chat.channel, list);
    }
    let insertedByChannel = new Map<ChannelName, number>();
    const result = await withRetry(() =>
      inTransaction(this.db, async (tx): Promise<BatchResult> => {
        insertedByChannel = new Map();
        let inserted = 0;
        let conversationsCreated = 0;
        for (const [channel, list] of byChannel) {
          conversationsCreated += await this.createMissingChats(workspaceId, channel, list, tx);
          for (let start = 0; start < list.length; start += CHUNK) {
            const chunk = list.slice(start, start + CHUNK);
            const counts = await this.batches.insertChunk(workspaceId, channel, chunk, options.countUnread ?? true, tx);
            inserted += counts.inserted;
            insertedByChannel.set(channel, (insertedByChannel.get(channel) ?? 0) + counts.inserted);
          }
        }
        return { received: messages.length, inserted, duplicates: messages.length - inserted, conversationsCreated };
      }),
    );
    // Counted once the transaction committed (a retried attempt counts nothing twice).
    for (const [channel, list] of byChannel) this.metrics?.batch(channel, insertedByChannel.get(channel) ?? 0, list.length);
    return result;
  }

  /**
   * New chats go through the single-message upsert (contact matching included); known ones are
   * skipped. Returns how many conversations this call really created.
   */
  private async createMissingChats(
    workspaceId: string,
    channel: ChannelName,
    messages: NormalizedInbound[],
    tx: SqlExecutor,
  ): Promise<number> {
    const firstByChat = new Map<string, NormalizedInbound>();
    for (const message of messages) {
      const seen = firstByChat.get(message.chat.chatJid);
      if (!seen || message.timestamp < seen.timestamp) firstByChat.set(message.chat.chatJid, message);
    }
    const missing = await this.batches.missingChats(workspaceId, channel, [...firstByChat.keys()], tx);
    let created = 0;
    // In jid order, so concurrent batches over the same chats lock them in the same order.
    for (const chatJid of missing.sort()) {
      const first = firstByChat.get(chatJid)!;
      // The conversation starts at its oldest message; the chunk insert moves it forward.
      const upserted = await this.repository.upsertChat(workspaceId, first.chat, first.timestamp, tx);
      if (!upserted) throw new RetryIngest();
      // A concurrent batch (or live message) may have created it since `missingChats` looked.
      if (upserted.inserted) created++;
    }
    return created;
  }
}
