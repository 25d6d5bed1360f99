import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Queryable } from '../../../infra/database/queryable.js';
import { type AfterCommit, type MemberHook, MemberHooks, type MemberRemoved } from '../../tenants/members/member-hooks.js';
import { InboxEvents } from '../inbox-events.service.js';
import { ConversationRepository } from './conversation.repository.js';

/**
 * When a member leaves a workspace, their conversations there are unassigned, in the removal's
 * transaction: agents see only unassigned conversations and their own, so a conversation still
 * assigned to someone who is gone would be invisible to every agent. Open Consoles get
 * `conversation.updated` for each after the commit (everyone may see them now).
 */
@Injectable()
export class MemberRemovalService implements MemberHook, OnModuleInit {
  constructor(
    private readonly hooks: MemberHooks,
    private readonly conversations: ConversationRepository,
    private readonly events: InboxEvents,
  ) {}

  onModuleInit(): void {
    this.hooks.register(this);
  }

  async memberRemoved({ workspaceId, userId, tx }: MemberRemoved & { tx: Queryable }): Promise<AfterCommit | undefined> {
    const unassigned = await this.conversations.unassignUser(workspaceId, userId, tx);
    if (unassigned.length === 0) return undefined;
    return async () => {
      for (const conversation of unassigned) {
        await this.events.conversationUpdated(workspaceId, conversation, { previousAssigneeId: userId });
      }
    };
  }
}
