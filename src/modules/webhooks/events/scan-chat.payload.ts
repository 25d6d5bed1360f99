import type { MessageEntity } from '../../inbox/entities/message.entity.js';
import type { ConversationIdentity } from '../../inbox/inbox-columns.js';
import { type MessageParts, messageParts } from '../../inbox/message-parts.js';
import { type MessageKind, messageTypeOf } from '../../inbox/message-kinds.js';

/**
 * The `scan.chat` event of the contract (docs/contract.md#events): every field present, '' or 0
 * when unknown; beside them `kind` and the message's added parts (MessageParts).
 */
export interface ScanChatPayload extends MessageParts {
  event: 'message.inbound';
  channel: 'scan';
  workspace_id: string;
  conversation_id: string;
  chat_message_id: string;
  chat_jid: string;
  sender_jid: string;
  sender_name: string;
  content: string;
  message_type: string;
  kind: MessageKind;
  media_url: string;
  mime_type: string;
  file_name: string;
  file_size: number;
  timestamp: string;
  is_group: boolean;
  chat_name: string;
  chat_phone: string;
  /** The message's place in its conversation (the REST message's `seq`): gap-free, so a receiver sees what it missed. */
  seq: number;
}

/** RFC 3339 in UTC, to the second (channel timestamps have no finer part): `2026-01-01T12:00:00Z`. */
export const rfc3339 = (value: Date | string): string => new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');

const text = (value: string | null | undefined): string => value ?? '';

export function scanChatPayload(workspaceId: string, message: MessageEntity, conversation: ConversationIdentity): ScanChatPayload {
  return {
    event: 'message.inbound',
    channel: 'scan',
    workspace_id: workspaceId,
    conversation_id: conversation.id,
    chat_message_id: text(message.externalId),
    chat_jid: conversation.chatJid,
    sender_jid: text(message.senderJid),
    sender_name: text(message.senderName),
    content: text(message.content),
    // The contract's coarse class; the kind beside it.
    message_type: messageTypeOf(message.messageType),
    kind: message.messageType,
    media_url: text(message.mediaUrl),
    mime_type: text(message.mimeType),
    file_name: text(message.fileName),
    file_size: Number(message.fileSize ?? 0),
    timestamp: rfc3339(message.timestamp),
    is_group: conversation.isGroup === true,
    chat_name: text(conversation.chatName),
    chat_phone: text(conversation.chatPhone),
    seq: Number(message.conversationSeq ?? 0),
    ...messageParts(message),
  };
}

/**
 * The held payload once the media settled: its stored address and size, and the playing time
 * read from the file when the message came without one (unchanged if given up).
 */
export function withStoredMedia(body: Buffer, message: MessageEntity): Buffer {
  const payload = JSON.parse(body.toString('utf8')) as ScanChatPayload;
  payload.media_url = text(message.mediaUrl);
  payload.file_size = Number(message.fileSize ?? 0);
  payload.duration_s = Number(message.durationS ?? 0);
  return Buffer.from(JSON.stringify(payload), 'utf8');
}
