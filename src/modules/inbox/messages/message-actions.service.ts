import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Clock } from '../../auth/clock/clock.js';
import { ChannelError, ChannelNotConnectedError, type ChannelGateway, type MessageTarget } from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { ConversationRepository } from '../conversations/conversation.repository.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import type { MessageResponse } from '../dto/inbox-responses.dto.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { toMessageResponse } from '../inbox.mapper.js';
import { MessageRepository } from './message.repository.js';
import { MESSAGE_NOT_FOUND, toChannelConversation, toMessageTarget } from './message-target.js';
import { MessageUpdatesService } from './message-updates.service.js';
import { messageText, textDraft } from './outgoing-draft.js';
import type { ReactionRequest } from './reaction-request.js';

/**
 * How long after sending a message WhatsApp lets its sender delete it for everyone: the apps
 * allow about two and a half days (60 hours); the service stops at 48 hours, clear of the edge,
 * so a request near the end is refused here rather than silently ignored by the recipients.
 */
export const REVOKE_WINDOW_MS = 48 * 60 * 60 * 1000;
/** How long after sending a text WhatsApp lets its sender edit it. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;

export const CANNOT_REACT = 'this channel cannot send reactions';
export const CANNOT_REVOKE = 'this channel cannot delete messages for everyone';
export const CANNOT_EDIT = 'this channel cannot edit messages';
export const REVOKE_TOO_LATE = 'a message can be deleted for everyone only within 48 hours of sending it';
export const EDIT_TOO_LATE = 'a message can be edited only within 15 minutes of sending it';
export const NOT_OURS_TO_REVOKE = 'only a message this number sent can be deleted for everyone';
export const NOT_OURS_TO_EDIT = 'only a message this number sent can be edited';
export const ONLY_TEXT_EDITS = 'only a text can be edited';
export const NOT_SENT = 'the message was not sent: it has no WhatsApp id yet';
export const DELETED_NO_EDIT = 'a message deleted for everyone cannot be edited';
export const DELETED_NO_REACTION = 'a message deleted for everyone cannot be reacted to';
const NOT_CONNECTED = 'chat is not connected';

type Act = 'react' | 'revoke' | 'edit';
const FAILED: Record<Act, string> = {
  react: 'the channel failed to send the reaction',
  revoke: 'the channel failed to delete the message',
  edit: 'the channel failed to edit the message',
};

/**
 * What the workspace does to a message of a conversation without sending a new one: react to it,
 * delete one it sent for everyone, edit a text it sent. Each is checked (400 before 404 before
 * 409, as a send), handed to the channel, and only then written to the row (through
 * MessageUpdatesService, so hooks and live events follow), so the row never claims what the
 * recipient did not get. The channel's echo of the same change finds the row already changed.
 */
@Injectable()
export class MessageActionsService {
  private readonly logger = new Logger('MessageActions');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly channels: ChannelRegistry,
    private readonly updates: MessageUpdatesService,
    private readonly clock: Clock,
  ) {}

  /** A reaction (`''` takes this number's back): 201 with the message reacted to. */
  async react(actor: WorkspaceActor, conversationId: string, request: ReactionRequest): Promise<MessageResponse> {
    const { conversation, message } = await this.find(actor, conversationId, request.messageId);
    if (message.deletedAt) throw ApiError.badRequest(DELETED_NO_REACTION);
    const target = this.sentTarget(message);
    const gateway = await this.gateway(actor.workspaceId, conversation, 'react', CANNOT_REACT);
    const receipt = await this.call('react', actor.workspaceId, message, () =>
      gateway.react!(actor.workspaceId, toChannelConversation(conversation), target, request.emoji),
    );
    // The channel names who reacted (this number); one that does not is known by its earlier sends.
    const senderJid = (receipt && receipt.senderJid) || (await this.messages.ownSenderJid(actor.workspaceId, conversation.id));
    return this.applied(await this.updates.applyOwnReaction(actor.workspaceId, message.id, senderJid, request.emoji));
  }

  /** Deletes a message this number sent for everyone: 200 with it, `deleted: true` (its content is kept). */
  async revoke(actor: WorkspaceActor, conversationId: string, messageId: string): Promise<MessageResponse> {
    const { conversation, message } = await this.find(actor, conversationId, messageId);
    if (message.direction !== 'outbound') throw ApiError.badRequest(NOT_OURS_TO_REVOKE);
    // A repeat changes nothing and asks the channel nothing.
    if (message.deletedAt) return toMessageResponse(message);
    const target = this.sentTarget(message);
    if (this.clock.now() - new Date(message.timestamp).getTime() > REVOKE_WINDOW_MS) throw ApiError.badRequest(REVOKE_TOO_LATE);
    const gateway = await this.gateway(actor.workspaceId, conversation, 'revoke', CANNOT_REVOKE);
    await this.call('revoke', actor.workspaceId, message, () => gateway.revoke!(actor.workspaceId, toChannelConversation(conversation), target));
    return this.applied(await this.updates.markDeleted(actor.workspaceId, message.id));
  }

  /** Edits a text this number sent: 200 with it, `edited: true` and the new `content`. */
  async edit(actor: WorkspaceActor, conversationId: string, messageId: string, input: { body?: string; content?: string }): Promise<MessageResponse> {
    const body = textDraft(messageText(input)).row.content;
    const { conversation, message } = await this.find(actor, conversationId, messageId);
    if (message.direction !== 'outbound') throw ApiError.badRequest(NOT_OURS_TO_EDIT);
    if (message.messageType !== 'text') throw ApiError.badRequest(ONLY_TEXT_EDITS);
    if (message.deletedAt) throw ApiError.badRequest(DELETED_NO_EDIT);
    const target = this.sentTarget(message);
    if (this.clock.now() - new Date(message.timestamp).getTime() > EDIT_WINDOW_MS) throw ApiError.badRequest(EDIT_TOO_LATE);
    const gateway = await this.gateway(actor.workspaceId, conversation, 'edit', CANNOT_EDIT);
    await this.call('edit', actor.workspaceId, message, () => gateway.edit!(actor.workspaceId, toChannelConversation(conversation), target, body));
    return this.applied(await this.updates.applyOwnEdit(actor.workspaceId, message.id, body));
  }

  private async find(actor: WorkspaceActor, conversationId: string, messageId: string): Promise<{ conversation: ConversationEntity; message: MessageEntity }> {
    const conversation = await this.conversations.find(actor.workspaceId, viewerOf(actor), conversationId);
    if (!conversation) throw ApiError.notFound('conversation not found');
    const message = await this.messages.findInConversation(actor.workspaceId, conversation.id, messageId);
    if (!message) throw ApiError.notFound(MESSAGE_NOT_FOUND);
    return { conversation, message };
  }

  private sentTarget(message: MessageEntity): MessageTarget {
    const target = toMessageTarget(message);
    if (!target || message.status === 'pending' || message.status === 'failed') throw ApiError.badRequest(NOT_SENT);
    return target;
  }

  /** The conversation's gateway: 400 when its channel cannot do `act` at all (connected or not), 409 when it is not connected. */
  private async gateway(workspaceId: string, conversation: ConversationEntity, act: Act, cannot: string): Promise<ChannelGateway> {
    const gateway = this.channels.gatewayFor(conversation.channel);
    if (gateway && !gateway[act]) throw ApiError.badRequest(cannot);
    if (!gateway || !(await gateway.isConnected(workspaceId))) throw ApiError.conflict(NOT_CONNECTED);
    return gateway;
  }

  /** The channel's part: its refusal is a 500 with its text (nothing changes), a dropped connection 409. */
  private async call<T>(act: Act, workspaceId: string, message: MessageEntity, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ChannelNotConnectedError) throw ApiError.conflict(NOT_CONNECTED);
      if (error instanceof ChannelError) throw new ApiError(500, error.message, error.details);
      this.logger.error({ err: error, workspaceId, messageId: message.id, act }, 'channel failed');
      throw new ApiError(500, FAILED[act]);
    }
  }

  private applied(updated: { message: MessageEntity } | null): MessageResponse {
    // The row was read a moment ago; a message deleted meanwhile (its conversation removed) is gone.
    if (!updated) throw ApiError.notFound(MESSAGE_NOT_FOUND);
    return toMessageResponse(updated.message);
  }
}
