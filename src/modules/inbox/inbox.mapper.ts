import type { ContactEntity } from './entities/contact.entity.js';
import type { ConversationEntity, ConversationStatus } from './entities/conversation.entity.js';
import type { MessageDirection, MessageEntity, MessageStatus, MessageType } from './entities/message.entity.js';

// Wire shapes of api.md ("Inbox"). The live event stream sends exactly these too.

export interface ConversationResponse {
  id: string;
  channel: string;
  chat_jid: string;
  chat_name: string;
  chat_phone: string;
  is_group: boolean;
  contact_id: string | null;
  assignee_id: string | null;
  /** Not in api.md's list; PATCH changes it and `?status=` filters on it, so clients can see it. */
  status: ConversationStatus;
  unread_count: number;
  last_message_at: string;
  last_message_preview: string;
}

export interface MessageResponse {
  id: string;
  conversation_id: string;
  direction: MessageDirection;
  chat_message_id: string | null;
  sender_jid: string;
  sender_name: string;
  message_type: MessageType;
  content: string;
  media_url: string;
  mime_type: string;
  file_name: string;
  file_size: number;
  status: MessageStatus;
  error: string | null;
  timestamp: string;
}

export interface ContactResponse {
  id: string;
  phone: string | null;
  lid: string | null;
  name: string;
  created_at: string;
  updated_at: string;
}

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
    message_type: row.messageType,
    content: row.content,
    media_url: row.mediaUrl,
    mime_type: row.mimeType,
    file_name: row.fileName,
    file_size: Number(row.fileSize),
    status: row.status,
    error: row.error,
    timestamp: iso(row.timestamp),
  };
}

export function toContactResponse(row: ContactEntity): ContactResponse {
  return {
    id: row.id,
    phone: row.phone,
    lid: row.lid,
    name: row.name,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
