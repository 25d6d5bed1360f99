import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-executor.js';
import { type AfterCommit, type MemberHook, MemberHooks, type MemberRemoved } from '../../tenants/members/member-hooks.js';
import type { ConversationAssigned } from '../changes/inbox-change.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import { InboxEvents } from '../inbox-events.service.js';
import { ConversationRepository } from './conversation.repository.js';

/**
 * When a member leaves a workspace, their conversations there are unassigned, in the removal's
 * transaction: agents see only unassigned conversations and their own, so a conversation still
 * assigned to someone who is gone would be invisible to every agent. Each is an assignment change
 * whose hooks (InboxChangeHooks) write in that transaction too. Open Consoles get
 * `conversation.updated` for each after the commit (everyone may see them now).
 */
@Injectable()
export class MemberRemovalService implements MemberHook, OnModuleInit {
  constructor(
    private readonly hooks: MemberHooks,
    private readonly conversations: ConversationRepository,
    private readonly events: InboxEvents,
    private readonly changes: InboxChangeHooks,
  ) {}

  onModuleInit(): void {
    this.hooks.register(this);
  }

  async memberRemoved({ workspaceId, userId, tx }: MemberRemoved & { tx: SqlExecutor }): Promise<AfterCommit | undefined> {
    const unassigned = await this.conversations.unassignUser(workspaceId, userId, tx);
    if (unassigned.length === 0) return undefined;
    const participants = await this.changes.participants(workspaceId, 'conversation.assignee');
    const changes = unassigned.map((conversation): ConversationAssigned => ({ kind: 'conversation.assignee', conversation, previousAssigneeId: userId }));
    for (const change of changes) await this.changes.inTransaction(workspaceId, tx, change, participants);
    return async () => {
      for (const change of changes) {
        await this.changes.afterCommit(workspaceId, change, participants);
        await this.events.conversationUpdated(workspaceId, change.conversation, { previousAssigneeId: userId });
      }
    };
  }
}
