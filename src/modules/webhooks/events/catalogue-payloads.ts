import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type {
  ConversationAssigned,
  ConversationLabelled,
  ConversationStatusChanged,
  MessageDeleted,
  MessageEdited,
  MessageReacted,
  MessageStatusMoved,
  OutboundMessageStored,
  OutboundSource,
} from '../../inbox/changes/inbox-change.js';
import type { ConversationResponse, MessageResponse } from '../../inbox/dto/inbox-responses.dto.js';
import type { ConversationEntity } from '../../inbox/entities/conversation.entity.js';
import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import { toConversationResponse, toMessageResponse } from '../../inbox/inbox.mapper.js';
import { rfc3339 } from './scan-chat.payload.js';

/** The head of every catalogue event of issue 38 (docs/webhooks.md#events). */
export interface CatalogueEventHead<E extends string> {
  event: E;
  channel: ChannelName;
  workspace_id: string;
  /** When the change happened (RFC 3339 UTC, to the second). */
  timestamp: string;
}

/** The REST message's fields spread flat, but `id` (it is `message_id`) and `timestamp` (it is `sent_at`). */
type MessageFields = Omit<MessageResponse, 'id' | 'timestamp' | 'chat_message_id'>;

/** Every message event: the head, the message's place, the REST message flat. */
export interface MessageEventPayload<E extends string> extends CatalogueEventHead<E>, MessageFields {
  conversation_id: string;
  message_id: string;
  /** The channel's message id; '' before the channel gave one. */
  chat_message_id: string;
  chat_jid: string;
  is_group: boolean;
  /** The message's `seq` in its conversation; 0 when it has none yet. */
  seq: number;
  /** The message's own time (the REST `timestamp`). */
  sent_at: string;
}

export type MessageSentStatus = 'sent' | 'delivered' | 'read' | 'played' | 'failed';

export interface MessageStatusPayload extends Omit<MessageEventPayload<'message.status'>, 'status' | 'error'> {
  /** What the receipt said: `played` for a played voice note, audio or video (stored as `read`). */
  status: MessageSentStatus | 'pending';
  /** The stored status before; '' when unknown. */
  previous_status: string;
  /** The channel's failure reason with `failed`, else ''. */
  error: string;
}

export interface MessageSentPayload extends MessageEventPayload<'message.sent'> {
  source: OutboundSource;
}

export interface MessageUpdatedPayload extends MessageEventPayload<'message.updated'> {
  content: string;
  previous_content: string;
  /** '' for the workspace's own edit through the API, else the editor's jid. */
  edited_by: string;
}

export interface MessageDeletedPayload extends MessageEventPayload<'message.deleted'> {
  /** '' when the workspace deleted it through the API, else the jid that revoked it. */
  deleted_by: string;
}

export interface MessageReactionPayload extends MessageEventPayload<'message.reaction'> {
  /** The reaction; '' when taken back. */
  emoji: string;
  reactor_jid: string;
  removed: boolean;
}

export type ConversationChange = 'status' | 'assignee' | 'labels';

export interface ConversationUpdatedPayload extends CatalogueEventHead<'conversation.updated'>, Omit<ConversationResponse, 'id' | 'channel'> {
  conversation_id: string;
  changes: ConversationChange[];
  previous_status: string;
  previous_assignee_id: string | null;
  /** The labels before the change (the same as `label_ids` unless `changes` has `labels`). */
  previous_label_ids: string[];
}

const now = (): string => rfc3339(new Date());

function messageEvent<E extends string>(event: E, workspaceId: string, message: MessageEntity, conversation: ConversationEntity): MessageEventPayload<E> {
  const { id, timestamp, chat_message_id, conversation_id: _conversationId, ...fields } = toMessageResponse(message);
  return {
    event,
    channel: conversation.channel,
    workspace_id: workspaceId,
    timestamp: now(),
    conversation_id: conversation.id,
    message_id: id,
    chat_message_id: chat_message_id ?? '',
    chat_jid: conversation.chatJid ?? '',
    is_group: conversation.isGroup === true,
    ...fields,
    seq: Number(message.conversationSeq ?? 0),
    // Every field present: a failure reason only where there is one.
    error: fields.error ?? '',
    sent_at: rfc3339(timestamp),
  };
}

export const messageStatusPayload = (workspaceId: string, change: MessageStatusMoved): MessageStatusPayload => ({
  ...messageEvent('message.status', workspaceId, change.message, change.conversation),
  status: change.status,
  previous_status: change.previousStatus ?? '',
  error: change.status === 'failed' ? change.error : '',
});

export const messageSentPayload = (workspaceId: string, change: OutboundMessageStored): MessageSentPayload => ({
  ...messageEvent('message.sent', workspaceId, change.message, change.conversation),
  source: change.source,
});

export const messageUpdatedPayload = (workspaceId: string, change: MessageEdited): MessageUpdatedPayload => ({
  ...messageEvent('message.updated', workspaceId, change.message, change.conversation),
  content: change.message.content ?? '',
  previous_content: change.previousContent,
  edited_by: change.editedBy,
});

export const messageDeletedPayload = (workspaceId: string, change: MessageDeleted): MessageDeletedPayload => ({
  ...messageEvent('message.deleted', workspaceId, change.message, change.conversation),
  deleted_by: change.revokedBy,
});

export const messageReactionPayload = (workspaceId: string, change: MessageReacted): MessageReactionPayload => ({
  ...messageEvent('message.reaction', workspaceId, change.message, change.conversation),
  emoji: change.reaction.emoji,
  reactor_jid: change.reaction.sender_jid,
  removed: change.reaction.emoji === '',
});

function conversationEvent(
  workspaceId: string,
  conversation: ConversationEntity,
  changes: ConversationChange[],
  previousStatus: string,
  previousAssigneeId: string | null,
  previousLabelIds: string[] = conversation.labelIds ?? [],
): ConversationUpdatedPayload {
  const { id, channel: _channel, ...fields } = toConversationResponse(conversation);
  return {
    event: 'conversation.updated',
    channel: conversation.channel,
    workspace_id: workspaceId,
    timestamp: now(),
    conversation_id: id,
    changes,
    previous_status: previousStatus,
    previous_assignee_id: previousAssigneeId,
    previous_label_ids: previousLabelIds,
    ...fields,
  };
}

/** A status, an assignee or labels set to what they were make no event. */
export function conversationUpdatedPayload(
  workspaceId: string,
  change: ConversationStatusChanged | ConversationAssigned | ConversationLabelled,
): ConversationUpdatedPayload | null {
  const { conversation } = change;
  if (change.kind === 'conversation.labels') {
    const now = conversation.labelIds ?? [];
    const same = now.length === change.previousLabelIds.length && now.every((id) => change.previousLabelIds.includes(id));
    if (same) return null;
    return conversationEvent(workspaceId, conversation, ['labels'], conversation.status, conversation.assigneeId, change.previousLabelIds);
  }
  if (change.kind === 'conversation.status') {
    if (change.previousStatus === conversation.status) return null;
    return conversationEvent(workspaceId, conversation, ['status'], change.previousStatus, conversation.assigneeId);
  }
  if (change.previousAssigneeId === conversation.assigneeId) return null;
  return conversationEvent(workspaceId, conversation, ['assignee'], conversation.status, change.previousAssigneeId);
}
