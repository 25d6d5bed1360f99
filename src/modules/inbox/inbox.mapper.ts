import type { ContactResponse, ConversationResponse, MessageResponse } from './dto/inbox-responses.dto.js';
import type { ContactEntity } from './entities/contact.entity.js';
import type { ConversationEntity } from './entities/conversation.entity.js';
import type { MessageEntity } from './entities/message.entity.js';
import { messageParts } from './message-parts.js';
import { messageTypeOf } from './message-kinds.js';

// Raw queries return timestamps as Date, but values that went through JSON (row_to_json) as text.
const iso = (value: Date | string): string => new Date(value).toISOString();

export function toConversationResponse(row: ConversationEntity): ConversationResponse {
  return {
    id: row.id,
    channel: row.channel,
    chat_jid: row.chatJid,
    chat_name: row.chatName,
    chat_phone: row.chatPhone,
    is_group: row.isGroup,
    contact_id: row.contactId,
    assignee_id: row.assigneeId,
    status: row.status,
    snoozed_until: row.snoozedUntil ? iso(row.snoozedUntil) : null,
    label_ids: row.labelIds ?? [],
    unread_count: Number(row.unreadCount),
    last_message_at: iso(row.lastMessageAt),
    last_message_preview: row.lastMessagePreview,
  };
}

export function toMessageResponse(row: MessageEntity): MessageResponse {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    direction: row.direction,
    chat_message_id: row.externalId,
    sender_jid: row.senderJid,
    sender_name: row.senderName,
    message_type: messageTypeOf(row.messageType),
    kind: row.messageType,
    content: row.content,
    media_url: row.mediaUrl,
    mime_type: row.mimeType,
    file_name: row.fileName,
    file_size: Number(row.fileSize),
    ...messageParts(row),
    quoted_id: row.quotedId ?? null,
    reactions: row.reactions ?? [],
    edited: row.editedAt != null,
    deleted: row.deletedAt != null,
    status: row.status,
    error: row.error,
    timestamp: iso(row.timestamp),
    // bigint comes back as a string; a conversation holds far fewer than 2^53 messages.
    seq: Number(row.conversationSeq ?? 0),
  };
}

export function toContactResponse(row: ContactEntity): ContactResponse {
  return {
    id: row.id,
    phone: row.phone,
    lid: row.lid,
    bsuid: row.bsuid,
    name: row.name,
    label_ids: row.labelIds ?? [],
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
