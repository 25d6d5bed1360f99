import type { DataSource } from 'typeorm';
import type { Settled } from '../../../infra/batching/group-commit.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { ContactMergeService } from './contact-merge.service.js';
import { GroupIngestRepository, type InsertedRow } from './group-ingest.repository.js';
import type { NormalizedInbound } from './inbound-message.js';
import { type IngestHook, IngestHooks } from './ingest-hooks.js';
import { IngestRepository, SPLIT_CONTACT } from './ingest.repository.js';
import { RetryIngest, withRetry } from './retry.js';
import { inPipelinedTransaction, inTransaction, onConnection, type PipelinedWork, type SqlExecutor } from '../../../infra/database/sql-transaction.js';

/** One caller's message on the live path. */
export interface LiveItem {
  workspaceId: string;
  message: NormalizedInbound;
  /** Run the hooks (false: a message the workspace sent itself). */
  hooks: boolean;
  mediaPending: boolean;
  /** The hooks whose `inTransaction` takes part for this workspace (empty when `hooks` is false). */
  participants: readonly IngestHook[];
}

export interface LiveResult {
  created: boolean;
  message: MessageEntity;
  conversation: ConversationEntity;
}

/** What the live path wrote for one message, and the conversations a contact merge moved. */
export interface Written {
  result: LiveResult;
  relinked: ConversationEntity[];
}

/**
 * A group's writes: per item, what the per-message path wrote, or the row the group statement
 * inserted (its result is made once committed, with the conversation as the move left it).
 */
interface GroupWritten {
  done: (Written | InsertedRow)[];
  moved: Map<string, ConversationEntity>;
}

const keyOf = (item: LiveItem): string => `${item.workspaceId}\u0000${item.message.chat.channel}\u0000${item.message.externalId}`;

/**
 * The writes of the live path, for one caller's message or a group of them (group commit). A
 * message alone takes exactly the path it took before groups existed: one statement without a
 * transaction when no hook writes in it. A group shares one transaction: the messages of known
 * chats go in one multi-row statement, the others (new chats, names or ids to fill in, split
 * contacts) one by one after them, then the hooks write, as many rows per statement as they can.
 */
export class LiveIngestWriter {
  constructor(
    private readonly db: DataSource,
    private readonly repository: IngestRepository,
    private readonly group: GroupIngestRepository,
    private readonly merges: ContactMergeService,
    private readonly hooks: IngestHooks,
  ) {}

  /**
   * Commits the group and settles each item. A repeated channel id within the group is written once
   * (the later callers get it as a repeat, as concurrent callers always did). When the group's
   * transaction fails (after its retries), nothing of it is stored: it is split in two halves,
   * committed one after the other (so a chat's order holds), down to the one message that fails,
   * whose caller alone gets the error.
   */
  async commit(items: readonly LiveItem[]): Promise<Settled<Written>[]> {
    const firstOf = new Map<string, number>();
    const primaries: LiveItem[] = [];
    const primaryOf = items.map((item) => {
      const key = keyOf(item);
      let index = firstOf.get(key);
      if (index === undefined) {
        index = primaries.push(item) - 1;
        firstOf.set(key, index);
      }
      return index;
    });
    const settled = await this.commitDistinct(primaries);
    const claimed = new Set<number>();
    return primaryOf.map((index) => {
      const outcome = settled[index]!;
      if (!outcome.ok || !claimed.has(index)) {
        claimed.add(index);
        return outcome;
      }
      // A later caller with the same channel id: the stored message, as a repeat.
      const { message, conversation } = outcome.value.result;
      return { ok: true, value: { result: { created: false, message, conversation }, relinked: [] } };
    });
  }

  private async commitDistinct(items: readonly LiveItem[]): Promise<Settled<Written>[]> {
    if (items.length === 0) return [];
    if (items.length === 1) {
      try {
        return [{ ok: true, value: await this.writeAlone(items[0]!) }];
      } catch (error) {
        return [{ ok: false, error }];
      }
    }
    try {
      return LiveIngestWriter.settle(await withRetry(() => inPipelinedTransaction(this.db, (tx) => this.writeGroup(items, tx))));
    } catch {
      const half = Math.ceil(items.length / 2);
      const first = await this.commitDistinct(items.slice(0, half));
      return [...first, ...(await this.commitDistinct(items.slice(half)))];
    }
  }

  /**
   * One message alone. Without transactional hooks this is one statement on one connection (atomic
   * by itself); with them, that statement and the hooks share one transaction. A message naming a
   * person known as two contacts (phone-only and LID-only) merges them first, in one transaction
   * with the message.
   */
  private writeAlone(item: LiveItem): Promise<Written> {
    const { workspaceId, message, participants, mediaPending } = item;
    return withRetry(async (): Promise<Written> => {
      const run = participants.length ? inTransaction : onConnection;
      const written = await run(this.db, (tx) => this.write(workspaceId, message, tx, false, participants, mediaPending));
      if (written !== SPLIT_CONTACT) return { result: written, relinked: [] };
      return inTransaction(this.db, (tx) => this.mergeAndWrite(workspaceId, message, tx, participants, mediaPending));
    });
  }

  /**
   * One attempt of a group on its transaction `tx`; throws (rolling all of it back) on any failure.
   * The group's existing conversations are locked first, all in id order in one statement, sent
   * with the group statement (pipelined: no round trip of its own): each message takes its
   * conversation's next `conversation_seq` as it is inserted, and a gap-free counter must stay
   * locked until the commit (issue 38; before it the group statement took no lock, and the
   * conversations were locked only for the move at the end). Then the known chats' messages go
   * in, then those of the per-message path (their conversations locked already, new ones created
   * by it), then the hooks (which read each message's number), and the move last, with COMMIT
   * right behind it (`inPipelinedTransaction`).
   */
  private async writeGroup(items: readonly LiveItem[], tx: SqlExecutor): Promise<PipelinedWork<GroupWritten>> {
    const [, outcomes] = await Promise.all([this.group.lockConversations(items, tx), this.group.ingestKnown(items, tx)]);
    const written: (Written | InsertedRow | undefined)[] = items.map(() => undefined);
    const inserted: InsertedRow[] = [];
    const repeats: number[] = [];
    outcomes.forEach((outcome, index) => {
      if (outcome.state === 'created') {
        inserted.push(outcome.row);
        written[index] = outcome.row;
      } else if (outcome.state === 'stored') repeats.push(index);
    });
    if (repeats.length) {
      const found = await this.group.findStored(
        repeats.map((index) => items[index]!),
        tx,
      );
      repeats.forEach((index, at) => {
        const row = found[at];
        // Hidden by a concurrent insert this statement could not see past: run the group again.
        if (!row) throw new RetryIngest();
        written[index] = { result: { created: false, ...row }, relinked: [] };
      });
    }
    // The rest one by one, in group order: each chat's first unknown message and all after it.
    for (let index = 0; index < items.length; index++) {
      if (written[index]) continue;
      const { workspaceId, message, mediaPending } = items[index]!;
      const stored = await this.write(workspaceId, message, tx, false, [], mediaPending);
      written[index] = stored === SPLIT_CONTACT ? await this.mergeAndWrite(workspaceId, message, tx, [], mediaPending) : { result: stored, relinked: [] };
    }
    const done = written as (Written | InsertedRow)[];
    const entries = items.flatMap(({ workspaceId, mediaPending, participants }, index) => {
      const entry = done[index]!;
      // New messages only: the group statement's rows (their conversation's identity), the
      // per-message path's created ones.
      const created = 'chat' in entry ? { message: entry.message, conversation: entry.chat } : entry.result.created ? entry.result : null;
      if (!created || participants.length === 0) return [];
      return [
        { event: { kind: 'message.ingested' as const, workspaceId, message: created.message, conversation: created.conversation, mediaPending }, participants },
      ];
    });
    await this.hooks.inTransactionMany(tx, entries);
    // The move is issued only now, so the group locks its conversations after the hooks, and it is
    // the tail: COMMIT goes out right behind it, without waiting for its answer.
    return { tail: this.group.moveConversations(inserted, tx).then((moved) => ({ done, moved })) };
  }

  /**
   * Each item's outcome, once committed. Callers (and the conversations a merge relinked) get the
   * conversations as the group leaves them: the per-message writes and merges ran before the move,
   * and a message of the group statement has only its conversation's identity until then (a copy
   * of the moved row each, as if each had read it). The move answers every conversation the
   * statement wrote to: each message's foreign key locked its row against deletion until the
   * commit. Should one be missing all the same, that caller gets an error, not half a row.
   */
  private static settle({ done, moved }: GroupWritten): Settled<Written>[] {
    return done.map((entry): Settled<Written> => {
      if ('chat' in entry) {
        const conversation = moved.get(entry.chat.id);
        if (!conversation) return { ok: false, error: new Error(`conversation ${entry.chat.id} was not moved by its group`) };
        return { ok: true, value: { result: { created: true, message: entry.message, conversation: { ...conversation } }, relinked: [] } };
      }
      const { result, relinked } = entry;
      Object.assign(result.conversation, moved.get(result.conversation.id));
      for (const conversation of relinked) Object.assign(conversation, moved.get(conversation.id));
      return { ok: true, value: entry };
    });
  }

  /** One attempt on `tx`; nothing written when it answers SPLIT_CONTACT (unless `merged`). */
  private async write(
    workspaceId: string,
    message: NormalizedInbound,
    tx: SqlExecutor,
    merged: boolean,
    participants: readonly IngestHook[],
    mediaPending: boolean,
  ): Promise<LiveResult | typeof SPLIT_CONTACT> {
    const stored = await this.repository.ingest(workspaceId, message, tx, { merged });
    if (stored === null) throw new RetryIngest();
    if (stored === SPLIT_CONTACT || !stored.created) return stored;
    if (message.chat.contact && stored.conversation.contactId === null) await this.linkContact(workspaceId, message, stored, tx);
    if (participants.length) {
      await this.hooks.inTransaction(
        { kind: 'message.ingested', workspaceId, tx, message: stored.message, conversation: stored.conversation, mediaPending },
        participants,
      );
    }
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
  private async linkContact(workspaceId: string, message: NormalizedInbound, stored: LiveResult, tx: SqlExecutor): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await this.repository.upsertChatRow(workspaceId, message.chat, message.timestamp, tx);
      if (row && row.contactId) {
        stored.conversation.contactId = row.contactId;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2 * (attempt + 1)));
    }
  }
}
