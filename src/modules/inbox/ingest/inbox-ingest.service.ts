import { Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { GroupCommit, type GroupCommitOptions, type Settled } from '../../../infra/batching/group-commit.js';
import { BatchIngestRepository } from './batch-ingest.repository.js';
import { ContactMergeService } from './contact-merge.service.js';
import { type InboundMessage, type NormalizedInbound, normalizeInbound } from './inbound-message.js';
import { GroupIngestRepository } from './group-ingest.repository.js';
import { type IngestHook, IngestHooks } from './ingest-hooks.js';
import { IngestMetrics } from './ingest.metrics.js';
import { IngestRepository } from './ingest.repository.js';
import { type LiveItem, LiveIngestWriter, type Written } from './live-ingest.writer.js';
import { RetryIngest, withRetry } from './retry.js';
import { inTransaction, type SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { ANALYZE_AFTER_CREATED, TableStatistics } from './table-statistics.js';

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

/** One caller's message before its group looks up the hooks taking part (LiveItem without them). */
type LiveCall = Omit<LiveItem, 'participants'>;

const NO_HOOKS: Promise<IngestHook[]> = Promise.resolve([]);

/** A committed message of the live path, and the after-commit work its caller waits for. */
interface Committed {
  written: Written;
  afterCommit: Promise<void>;
}

/**
 * Group commit limits. A group is one transaction of a few multi-row statements. 128 messages
 * amortise its statements and commit, yet split a burst of a few hundred callers into groups that
 * overlap: while one is in Postgres, the service parses the last one's rows and the next forms,
 * so both cores work (one group of 256 left one idle; bench:ingest measures both). 3 groups in
 * flight stay within the connection pool (10) that the rest of the service shares.
 *
 * A group costs about 11 ms of CPU (node, Postgres and Redis together) on top of some 0.25 ms per
 * message, so a second group formed from the few callers of a moderate load costs more than it
 * saves: at 2,000 msg/s, groups of 16 side by side took 830 µs of CPU per message, near both
 * cores. A group starts beside a running one only once 32 callers wait; then 670 µs (bench:ingest,
 * paced phase), its p99 lower too, since fewer commits also flush the disk faster. The 32-caller
 * rule holds a caller back 25 ms at most (groups of a moderate load take 10–25 ms): a group stuck
 * on a lock holds up other workspaces' messages no longer than that while a slot is free (with 3
 * groups in flight, callers wait for a slot, as before). Bursts (groups of 128) and a lone caller
 * on an idle service are unaffected.
 */
export const LIVE_GROUP_COMMIT: Readonly<GroupCommitOptions> = { maxBatch: 128, maxInFlight: 3, minBatchWhileBusy: 32, maxWaitWhileBusyMs: 25 };

// Rows per INSERT statement. Postgres accepts far more through arrays; this keeps one statement's
// memory and lock time modest while amortising the round trip.
const CHUNK = 5000;

/**
 * The channel-neutral ingest pipeline (docs/contract.md#data-flow-of-an-inbound-message): contact, conversation and
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
  ) {
    this.writer = new LiveIngestWriter(db, repository, new GroupIngestRepository(), merges, hooks);
    this.statistics = new TableStatistics(db);
    this.groups = new GroupCommit((items) => this.commitGroup(items), { ...LIVE_GROUP_COMMIT });
  }

  private readonly logger = new Logger('InboxIngest');
  private readonly writer: LiveIngestWriter;
  /** Fresh statistics after a bulk import created many conversations, or once the live path's tables outgrew theirs (table-statistics.ts). */
  readonly statistics: TableStatistics;
  private readonly groups: GroupCommit<LiveCall, Committed>;
  private ungrouped = false;
  // Calls of the current turn, not yet handed to the group commit (see `enter`).
  private arriving: { call: LiveCall; resolve: (value: Committed) => void; reject: (error: unknown) => void }[] = [];

  /**
   * Live path: one message, with hooks and live events when (and only when) it is new, committed
   * with the messages of concurrent callers (group commit, docs/inbox.md): callers of the same
   * turn of the event loop share one transaction, and while the service is busy the next group
   * grows. A caller alone on an idle service takes the single-message path of old. The result is
   * this caller's own (created or repeat, its message, its conversation as the group left it);
   * an error is this message's own: one bad message never fails the others.
   */
  async ingest(workspaceId: string, input: InboundMessage, options: IngestOptions = {}): Promise<IngestResult> {
    const message = normalizeInbound(input);
    const hooks = options.hooks ?? true;
    const call: LiveCall = { workspaceId, message, hooks, mediaPending: options.mediaPending === true };
    // Group commit off (maxBatch 1): straight to the single-message path, as before groups existed.
    const [outcome] = this.ungrouped ? await this.commitGroup([call]) : [{ ok: true as const, value: await this.enter(call) }];
    if (!outcome!.ok) throw outcome!.error;
    const { written, afterCommit } = outcome!.value;
    await afterCommit;
    return written.result;
  }

  /**
   * Hands the call to the group commit together with every call made in the same turn (collected
   * until the microtasks run out): a burst of callers resumed at once (a finished group's, calling
   * again) then forms one group even on an idle service, where a lone call starts at once. Nothing
   * is awaited before this, so such a burst really arrives together.
   */
  private enter(call: LiveCall): Promise<Committed> {
    return new Promise<Committed>((resolve, reject) => {
      if (this.arriving.push({ call, resolve, reject }) > 1) return;
      queueMicrotask(() => {
        const arrived = this.arriving;
        this.arriving = [];
        this.groups.callMany(arrived.map((entry) => entry.call)).forEach((result, index) => void result.then(arrived[index]!.resolve, arrived[index]!.reject));
      });
    });
  }

  /**
   * Changes the group commit's limits. `maxBatch: 1` (with no limit on batches in flight) is the
   * service as it was before group commit: one transaction, or statement, per call.
   */
  configureGroupCommit(options: Partial<GroupCommitOptions>): void {
    this.groups.configure(options);
    if (options.maxBatch !== undefined) this.ungrouped = options.maxBatch <= 1;
  }

  /**
   * Commits a group, then starts its after-commit work (hooks, live events) without holding the
   * group's slot: each caller awaits it before its `ingest` returns, as it always did.
   */
  private async commitGroup(calls: LiveCall[]): Promise<Settled<Committed>[]> {
    // The hooks that write in the transaction, once per workspace of the group (a failed lookup
    // fails that workspace's calls only).
    const participants = new Map<string, Promise<IngestHook[]>>();
    for (const { workspaceId, hooks } of calls)
      if (hooks && !participants.has(workspaceId)) participants.set(workspaceId, this.hooks.participants(workspaceId));
    const looked = await Promise.allSettled(calls.map(({ workspaceId, hooks }) => (hooks ? participants.get(workspaceId)! : NO_HOOKS)));
    const items: LiveItem[] = [];
    const at: number[] = [];
    const results: Settled<Committed>[] = calls.map((call, index) => {
      const found = looked[index]!;
      if (found.status === 'rejected') return { ok: false, error: found.reason };
      at.push(index);
      items.push({ ...call, participants: found.value });
      return { ok: false, error: undefined }; // replaced by its outcome below
    });
    const settled = await this.writer.commit(items);
    const afterCommit = this.afterCommit(items, settled).catch((error: unknown) => {
      this.logger.error({ err: error }, 'after-commit work failed');
    });
    settled.forEach((outcome, index) => {
      results[at[index]!] = outcome.ok ? { ok: true, value: { written: outcome.value, afterCommit } } : outcome;
    });
    return results;
  }

  /** Once per new message, after its commit, in group order: hooks, then live events. */
  private async afterCommit(items: readonly LiveItem[], settled: readonly Settled<Written>[]): Promise<void> {
    const created: { item: LiveItem; written: Written }[] = [];
    settled.forEach((outcome, index) => {
      if (!outcome.ok) return;
      const item = items[index]!;
      this.metrics?.live(item.message.chat.channel, outcome.value.result.created);
      if (outcome.value.result.created) created.push({ item, written: outcome.value });
    });
    // New rows may have outgrown the statistics the prepared plans were made from (table-statistics.ts).
    if (created.length) this.statistics.stored(created.length);
    await this.hooks.afterCommitMany(
      created
        .filter(({ item }) => item.hooks)
        .map(({ item, written: { result } }) => ({
          kind: 'message.ingested' as const,
          workspaceId: item.workspaceId,
          message: result.message,
          conversation: result.conversation,
          mediaPending: item.mediaPending,
        })),
    );
    // Live events are not awaited: the stream is best effort (failures are logged), and a slow or
    // unreachable Redis must not hold up ingestion. Their order is kept all the same: the group's
    // events go out in group order (one script per workspace, all in one write), after the
    // previous group's, on the one shared Redis connection.
    void this.events
      .messagesCreated(
        created.map(({ item, written: { result, relinked } }) => ({
          workspaceId: item.workspaceId,
          message: result.message,
          conversation: result.conversation,
          // Conversations a merge moved to the kept contact (the message's own is published with it).
          alsoUpdated: relinked.filter((conversation) => conversation.id !== result.conversation.id),
        })),
      )
      .catch((error: unknown) => this.logger.warn({ err: error }, 'live events not published'));
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
    if (result.conversationsCreated >= ANALYZE_AFTER_CREATED) this.statistics.refresh();
    return result;
  }

  /**
   * New chats go through the single-message upsert (contact matching included); known ones are
   * skipped. Returns how many conversations this call really created.
   */
  private async createMissingChats(workspaceId: string, channel: ChannelName, messages: NormalizedInbound[], tx: SqlExecutor): Promise<number> {
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
