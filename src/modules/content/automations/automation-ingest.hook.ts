import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { type IngestedMessage, type IngestHook, IngestHooks, type PendingMessage } from '../../inbox/ingest/ingest-hooks.js';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { AutomatedWorkspaces } from './automated-workspaces.js';
import { AutomationQueue } from './automation-queue.js';
import { AutomationTriggerRepository } from './automation-trigger.repository.js';

/**
 * Hangs the automations off the ingest pipeline, which calls it for new messages only (never a
 * repeat, never history, never a message the workspace sent: those are ingested without hooks).
 * The trigger row commits with the message (for workspaces with an enabled automation only: the
 * others keep ingest's cheaper path without a transaction); the job is enqueued after the commit.
 * A crash in between leaves the row pending, and the sweeper enqueues it.
 */
@Injectable()
export class AutomationIngestHook implements IngestHook, OnModuleInit, OnModuleDestroy {
  // Messages whose trigger row this process wrote, until their commit (the pipeline hands the same
  // object to both calls); a rolled-back ingest just leaves its entry to the garbage collector.
  private readonly recorded = new WeakSet<MessageEntity>();
  private readonly logger = new Logger('Automations');
  private unregister: (() => void) | null = null;

  constructor(
    private readonly hooks: IngestHooks,
    private readonly triggers: AutomationTriggerRepository,
    private readonly queue: AutomationQueue,
    private readonly automated: AutomatedWorkspaces,
  ) {}

  onModuleInit(): void {
    this.unregister = this.hooks.register(this);
  }

  onModuleDestroy(): void {
    this.unregister?.();
  }

  /** Workspaces without an enabled automation keep ingest's single statement, without a transaction. */
  wantsTransaction(workspaceId: string): Promise<boolean> {
    return this.automated.has(workspaceId);
  }

  async inTransaction({ workspaceId, message, conversation, tx }: PendingMessage & { tx: SqlExecutor }): Promise<void> {
    // Only what reached the workspace: a channel that passes its own echo with hooks must not loop.
    if (message.direction !== 'inbound') return;
    if (await this.triggers.record(workspaceId, message.id, conversation.id, tx)) this.recorded.add(message);
  }

  /** Group commit: the trigger rows of all its inbound messages in one statement. */
  async inTransactionMany(tx: SqlExecutor, events: PendingMessage[]): Promise<void> {
    const inbound = events.filter(({ message }) => message.direction === 'inbound');
    if (inbound.length === 0) return;
    const recorded = await this.triggers.recordMany(
      inbound.map(({ workspaceId, message, conversation }) => ({ workspaceId, messageId: message.id, conversationId: conversation.id })),
      tx,
    );
    for (const { message } of inbound) if (recorded.has(message.id)) this.recorded.add(message);
  }

  /**
   * Not awaited: while Redis is away an enqueue waits for it, and ingest (a channel's socket
   * handler) must not. The row is in Postgres; the sweeper enqueues whatever this misses.
   */
  async afterCommit({ workspaceId, message }: IngestedMessage): Promise<void> {
    if (!this.recorded.delete(message)) return;
    void this.queue.enqueue({ workspaceId, messageId: message.id }).catch((error: unknown) => {
      this.logger.warn({ err: error, workspaceId, messageId: message.id }, 'automation job not enqueued; the sweeper will');
    });
  }
}
