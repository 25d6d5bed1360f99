import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { SqlExecutor } from '../../infra/database/sql-transaction.js';
import { InboxChangeHooks } from '../inbox/changes/inbox-change-hooks.js';
import { ConversationRepository } from '../inbox/conversations/conversation.repository.js';
import type { InboxChange, OutboundSource } from '../inbox/changes/inbox-change.js';
import { ReportsRepository } from './reports.repository.js';

/** Sends by a person: a Console member or an API key. Automations and the phone do not count. */
const PERSON_SOURCES: readonly OutboundSource[] = ['console', 'api'];

/**
 * Records an opening's first response in the send's own transaction (the pending row's), so the
 * message and its report row commit together. A hook, not a trigger: only the send knows who
 * sent it (`source`, the member) — the message row says neither. Every send path (the messages
 * route, starting a conversation, automations) stores its message through `SendMessageService.deliver`,
 * whose change this is; automations' sends carry `source: 'automation'` and are skipped here.
 */
@Injectable()
export class FirstResponseHook implements OnModuleInit, OnModuleDestroy {
  private remove?: () => void;

  constructor(
    private readonly changes: InboxChangeHooks,
    private readonly conversations: ConversationRepository,
    private readonly reports: ReportsRepository,
  ) {}

  onModuleInit(): void {
    this.remove = this.changes.register({
      changes: ['message.outbound'],
      inTransaction: (workspaceId, tx, change) => this.record(workspaceId, tx, change),
    });
  }

  onModuleDestroy(): void {
    this.remove?.();
  }

  private async record(workspaceId: string, tx: SqlExecutor, change: InboxChange): Promise<void> {
    if (change.kind !== 'message.outbound' || !PERSON_SOURCES.includes(change.source)) return;
    const { id } = change.conversation;
    const at = change.message.timestamp;
    const taken = await this.conversations.takeFirstResponse(workspaceId, id, at, tx);
    // Credited to the sender, or the assignee for a send by a key.
    if (taken) await this.reports.recordFirstResponse(workspaceId, tx, id, at, taken.firstInboundAt, change.senderId ?? taken.assigneeId);
  }
}
