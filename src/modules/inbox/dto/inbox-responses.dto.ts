import { ApiProperty } from '@nestjs/swagger';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../entities/conversation.entity.js';
import {
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  type MessageDirection,
  type MessageStatus,
  type MessageType,
} from '../entities/message.entity.js';

// Wire shapes of docs/inbox.md#shapes. The live event stream sends exactly these too.

export class ConversationResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'scan', description: '`scan` (QR-linked number) or `meta` (Cloud API number)' })
  channel: string;

  @ApiProperty({ example: '4915123456789@s.whatsapp.net', description: '`@s.whatsapp.net` or `@lid` for a person, `@g.us` for a group' })
  chat_jid: string;

  @ApiProperty({ description: 'Contact or group name, when known; may be empty' })
  chat_name: string;

  @ApiProperty({ example: '4915123456789', description: 'Digits of the phone number of a one-to-one chat, when known' })
  chat_phone: string;

  @ApiProperty()
  is_group: boolean;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null for groups' })
  contact_id: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: "A member's user id, or null when unassigned" })
  assignee_id: string | null;

  /** Added to the shape (docs/inbox.md#shapes): PATCH changes it and `?status=` filters on it, so clients can see it. */
  @ApiProperty({ enum: CONVERSATION_STATUSES })
  status: ConversationStatus;

  @ApiProperty({ description: 'Inbound messages since the conversation was last marked read' })
  unread_count: number;

  @ApiProperty({ format: 'date-time' })
  last_message_at: string;

  @ApiProperty({ description: 'Start of the latest message (text, or caption of media)' })
  last_message_preview: string;
}

export class MessageResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  conversation_id: string;

  @ApiProperty({ enum: MESSAGE_DIRECTIONS })
  direction: MessageDirection;

  @ApiProperty({ nullable: true, type: String, description: "The channel's message id (deduplicate on it); null until an outbound message is sent" })
  chat_message_id: string | null;

  @ApiProperty()
  sender_jid: string;

  @ApiProperty({ description: 'May be empty' })
  sender_name: string;

  @ApiProperty({ enum: MESSAGE_TYPES })
  message_type: MessageType;

  @ApiProperty({ description: 'Text, or the caption of an image or document' })
  content: string;

  @ApiProperty({ description: 'Path `/api/media/<workspace>/<file>` of stored media, or empty' })
  media_url: string;

  @ApiProperty({ description: 'Media MIME type, or empty' })
  mime_type: string;

  @ApiProperty({ description: 'Document file name, or empty' })
  file_name: string;

  @ApiProperty({ description: 'Media size in bytes, or 0' })
  file_size: number;

  @ApiProperty({ enum: MESSAGE_STATUSES, description: 'Only moves forward: pending → sent → delivered → read, or failed' })
  status: MessageStatus;

  @ApiProperty({ nullable: true, type: String, description: 'Why the message failed' })
  error: string | null;

  @ApiProperty({ format: 'date-time' })
  timestamp: string;
}

export class MessagePageResponse {
  @ApiProperty({ type: [MessageResponse], description: 'Newest first' })
  messages: MessageResponse[];

  @ApiProperty({ nullable: true, type: String, description: 'Pass as `?before=` for the next (older) page; null on the last page' })
  next_cursor: string | null;
}

export class StartedConversationResponse {
  @ApiProperty({ type: ConversationResponse })
  conversation: ConversationResponse;

  @ApiProperty({
    type: MessageResponse,
    nullable: true,
    description: 'The first message as stored; null when the request had no `body`/`content` (the conversation was only found or created)',
  })
  message: MessageResponse | null;
}

export class ContactResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ nullable: true, type: String, example: '4915123456789', description: 'Digits only (E.164 without +)' })
  phone: string | null;

  @ApiProperty({ nullable: true, type: String, description: "The contact's WhatsApp LID, when known" })
  lid: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    example: 'US.13491208655302741918',
    description: "The contact's Cloud API business-scoped user id, when known (people who hide their number behind a username have only this)",
  })
  bsuid: string | null;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}
