import { Injectable, Logger } from '@nestjs/common';
import { HookRegistry } from '../../../infra/hooks/hook-registry.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import type { ConversationIdentity } from '../inbox-columns.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';

/** A new message and its conversation: the whole row after the commit, its identity before (PendingMessage). */
export interface IngestedMessage<Conversation extends ConversationIdentity = ConversationEntity> {
  /** The inbox change it is (`InboxChange`, src/modules/inbox/changes/inbox-change.ts). */
  kind: 'message.ingested';
  workspaceId: string;
  message: MessageEntity;
  conversation: Conversation;
  /**
   * The message's media is still to be downloaded (`ingest(…, { mediaPending: true })`): hooks
   * that must show it (webhooks' `media_url`) hold their work until `mediaSettled`.
   */
  mediaPending?: boolean;
}

/**
 * A new message as the hooks see it inside its transaction: the conversation's identity only. A
 * group commit moves its conversations (last message, unread count) after the hooks, and reads
 * nothing else of them before (docs/inbox.md).
 */
export type PendingMessage = IngestedMessage<ConversationIdentity>;

/** A message ingested with `mediaPending` has its media stored, or its download given up. */
export interface MediaSettled {
  workspaceId: string;
  /** The message as stored now (`media_url` set, or still empty when the download gave up). */
  message: MessageEntity;
}

/**
 * What later features hang off a new message (never a repeat, never history). The transactional
 * outbox (docs/contract.md#rules-that-hold-everywhere) writes its delivery rows in `inTransaction` through `tx`, so the
 * message and its deliveries commit together, and enqueues the jobs in `afterCommit`.
 */
export interface IngestHook {
  /**
   * Whether this workspace's new messages need the hook's `inTransaction` (default: always). A
   * hook that concerns only some workspaces answers false for the others, so their ingest stays
   * one statement without a transaction (several times cheaper) when no other hook needs one.
   */
  wantsTransaction?(workspaceId: string): Promise<boolean>;
  inTransaction?(event: PendingMessage & { tx: SqlExecutor }): Promise<void>;
  /**
   * Group commit: the new messages of several callers (any workspaces), in their order, in the
   * one transaction they share (`tx`). A hook that can write them in one statement implements
   * this; without it, `inTransaction` runs once per message. Only messages of workspaces for
   * which the hook takes part (`wantsTransaction`) are passed. Both get what identifies the
   * message's chat (PendingMessage); `afterCommit` gets the conversation's whole row, as moved.
   */
  inTransactionMany?(tx: SqlExecutor, events: PendingMessage[]): Promise<void>;
  afterCommit?(event: IngestedMessage): Promise<void>;
  /** After a group's commit, its new messages at once; without it, `afterCommit` once per message. */
  afterCommitMany?(events: IngestedMessage[]): Promise<void>;
  /** In the transaction that records the media's outcome (the media job's). */
  mediaSettled?(event: MediaSettled & { tx: SqlExecutor }): Promise<void>;
  afterMediaSettled?(event: MediaSettled): Promise<void>;
}

/** Hooks registered by other modules from their `onModuleInit`. */
@Injectable()
export class IngestHooks extends HookRegistry<IngestHook> {
  private readonly logger = new Logger('IngestHooks');

  /**
   * The hooks whose `inTransaction` takes part in this workspace's ingest; none: ingest needs no
   * explicit transaction around its statement.
   */
  async participants(workspaceId: string): Promise<IngestHook[]> {
    const chosen: IngestHook[] = [];
    for (const hook of this.hooks) {
      if ((hook.inTransaction || hook.inTransactionMany) && ((await hook.wantsTransaction?.(workspaceId)) ?? true)) chosen.push(hook);
    }
    return chosen;
  }

  /** A failure here rolls the whole ingest back (the channel will redeliver). */
  async inTransaction(event: PendingMessage & { tx: SqlExecutor }, participants: readonly IngestHook[]): Promise<void> {
    for (const hook of participants) {
      if (hook.inTransaction) await hook.inTransaction(event);
      else await hook.inTransactionMany?.(event.tx, [event]);
    }
  }

  /**
   * Group commit: each message's participating hooks, hook by hook (registration order), each with
   * all its messages at once when it can take them so. A failure rolls the group back.
   */
  async inTransactionMany(tx: SqlExecutor, entries: readonly { event: PendingMessage; participants: readonly IngestHook[] }[]): Promise<void> {
    for (const hook of this.hooks) {
      const events = entries.filter((entry) => entry.participants.includes(hook)).map((entry) => entry.event);
      if (events.length === 0) continue;
      if (hook.inTransactionMany) await hook.inTransactionMany(tx, events);
      else for (const event of events) await hook.inTransaction?.({ ...event, tx });
    }
  }

  /** After a group's commit, as `afterCommit`: failures are logged, never raised. */
  async afterCommitMany(events: readonly IngestedMessage[]): Promise<void> {
    if (events.length === 0) return;
    for (const hook of this.hooks) {
      if (hook.afterCommitMany) {
        const many = hook.afterCommitMany.bind(hook);
        await this.logged(events[0]!, () => many([...events]));
      } else if (hook.afterCommit) {
        for (const event of events) await this.logged(event, () => hook.afterCommit?.(event));
      }
    }
  }

  /**
   * The message is committed by now, so a failure must not surface as a failed ingest: the
   * outbox sweeper re-enqueues whatever an after-commit step left pending.
   */
  async afterCommit(event: IngestedMessage): Promise<void> {
    for (const hook of this.hooks) await this.logged(event, () => hook.afterCommit?.(event));
  }

  /** A failure here rolls the media outcome back (the media job runs again). */
  async mediaSettled(event: MediaSettled & { tx: SqlExecutor }): Promise<void> {
    for (const hook of this.hooks) await hook.mediaSettled?.(event);
  }

  /** Committed, as `afterCommit`: failures are logged, the outbox sweeper picks up what is left. */
  async afterMediaSettled(event: MediaSettled): Promise<void> {
    for (const hook of this.hooks) await this.logged(event, () => hook.afterMediaSettled?.(event));
  }

  private async logged(event: { workspaceId: string; message: MessageEntity }, work: () => Promise<void> | undefined): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.error({ err: error, workspaceId: event.workspaceId, messageId: event.message.id }, 'after-commit hook failed');
    }
  }
}
