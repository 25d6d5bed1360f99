import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { MembershipRepository } from '../../tenants/members/membership.repository.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import { isUuid } from '../dto/id.pipe.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import type { ConversationResponse } from '../dto/inbox-responses.dto.js';
import { toConversationResponse } from '../inbox.mapper.js';
import { MessageRepository } from '../messages/message.repository.js';
import { toChannelConversation } from '../messages/send-message.service.js';
import { ConversationRepository, type ConversationUpdate } from './conversation.repository.js';
import { viewerOf } from './conversation-viewer.js';

// Read receipts for at most this many of the newest unread messages.
const READ_RECEIPT_CAP = 100;

@Injectable()
export class ConversationsService {
  private readonly logger = new Logger('Conversations');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly memberships: MembershipRepository,
    private readonly channels: ChannelRegistry,
    private readonly events: InboxEvents,
    private readonly changes: InboxChangeHooks,
  ) {}

  async get(actor: WorkspaceActor, id: string): Promise<ConversationResponse> {
    return toConversationResponse(await this.require(actor, id));
  }

  /** Unread to 0, and read receipts to the channel when it is connected (best effort). */
  async markRead(actor: WorkspaceActor, id: string): Promise<{ ok: true }> {
    const result = await this.conversations.markRead(actor.workspaceId, viewerOf(actor), id);
    if (!result) throw ApiError.notFound('conversation not found');
    const { conversation, previousUnread } = result;
    if (previousUnread === 0) return { ok: true };
    await this.events.conversationUpdated(actor.workspaceId, conversation);
    try {
      const gateway = await this.channels.connected(actor.workspaceId, conversation.channel);
      if (gateway) {
        const ids = await this.messages.latestInboundIds(actor.workspaceId, id, Math.min(previousUnread, READ_RECEIPT_CAP));
        if (ids.length) await gateway.markRead(actor.workspaceId, toChannelConversation(conversation), ids);
      }
    } catch (error) {
      // The inbox state is what the user asked for; a lost receipt only affects the phone's ticks.
      this.logger.warn({ err: error, workspaceId: actor.workspaceId, conversationId: id }, 'read receipts not sent');
    }
    return { ok: true };
  }

  async assign(actor: WorkspaceActor, id: string, userId: string | null | undefined): Promise<ConversationResponse> {
    if (userId === undefined) throw ApiError.badRequest('user_id is required (a member id, or null to unassign)');
    if (userId !== null) {
      if (!isUuid(userId)) throw ApiError.badRequest('invalid user id');
      if (!(await this.memberships.find(actor.workspaceId, userId.toLowerCase()))) {
        throw ApiError.badRequest('assignee must be a member of this workspace');
      }
    }
    const assigneeId = userId?.toLowerCase() ?? null;
    // The change's hooks (InboxChangeHooks) write in its transaction, when any takes part.
    const result = await this.changes.apply(
      actor.workspaceId,
      'conversation.assignee',
      (tx) => this.conversations.update(actor.workspaceId, viewerOf(actor), id, { assigneeId }, tx),
      (updated) => updated && { kind: 'conversation.assignee', conversation: updated.conversation, previousAssigneeId: updated.previousAssigneeId },
    );
    return this.assigned(actor, result);
  }

  /** After an assignment committed: live events (a re-assignment also reaches the agent who lost it). */
  private async assigned(actor: WorkspaceActor, result: ConversationUpdate | null): Promise<ConversationResponse> {
    if (!result) throw ApiError.notFound('conversation not found');
    const { conversation, previousAssigneeId } = result;
    const reassigned = previousAssigneeId !== conversation.assigneeId;
    await this.events.conversationUpdated(actor.workspaceId, conversation, reassigned ? { previousAssigneeId } : {});
    return toConversationResponse(conversation);
  }

  private async require(actor: WorkspaceActor, id: string): Promise<ConversationEntity> {
    const conversation = await this.conversations.find(actor.workspaceId, viewerOf(actor), id);
    if (!conversation) throw ApiError.notFound('conversation not found');
    return conversation;
  }
}
