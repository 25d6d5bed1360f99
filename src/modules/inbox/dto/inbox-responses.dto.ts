import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../entities/conversation.entity.js';
import {
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  MESSAGE_TYPES,
  type MessageDirection,
  type MessageStatus,
  type MessageType,
} from '../entities/message.entity.js';
import { MESSAGE_KIND_NAMES, type MessageKind } from '../message-kinds.js';

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

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When a `snoozed` conversation opens again by itself; null for every other status',
  })
  snoozed_until: string | null;

  @ApiProperty({ type: [String], format: 'uuid', description: 'Ids of the workspace labels on the conversation (`GET /api/labels` names them)' })
  label_ids: string[];

  @ApiProperty({ description: 'Inbound messages since the conversation was last marked read' })
  unread_count: number;

  @ApiProperty({ format: 'date-time' })
  last_message_at: string;

  @ApiProperty({ description: 'Start of the latest message (text, or caption of media)' })
  last_message_preview: string;
}

export class LocationResponse {
  @ApiProperty({ example: 52.520008 })
  latitude: number;

  @ApiProperty({ example: 13.404954 })
  longitude: number;

  @ApiProperty({ example: 'Alexanderplatz', description: "The place's name, or empty" })
  name: string;

  @ApiProperty({ example: '10178 Berlin', description: 'Its address, or empty' })
  address: string;

  @ApiProperty({ example: 'https://maps.example.com/?q=52.520008,13.404954', description: 'A link the sender attached, or empty' })
  url: string;
}

export class ContactCardResponse {
  @ApiProperty({ example: 'Ada Lovelace' })
  name: string;

  @ApiProperty({ type: [String], example: ['4915123456789'], description: 'Phone numbers, digits only' })
  phones: string[];

  @ApiProperty({
    description: 'The vCard as sent',
    example: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nTEL;type=CELL;waid=4915123456789:+4915123456789\nEND:VCARD',
  })
  vcard: string;
}

export class PollResponse {
  @ApiProperty({ example: 'Which day suits you?' })
  question: string;

  @ApiProperty({ type: [String], example: ['Monday', 'Tuesday'] })
  options: string[];

  @ApiProperty({ example: false, description: 'Whether more than one option may be chosen' })
  multiple: boolean;
}

export class ReplyChoiceResponse {
  @ApiProperty({ example: 'confirm', description: 'The id the business gave the button or row (a quick reply: its payload)' })
  id: string;

  @ApiProperty({ example: 'Yes, confirm', description: "What the person saw and tapped (also the message's `content`)" })
  title: string;
}

export class ReactionResponse {
  @ApiProperty({ example: '👍' })
  emoji: string;

  @ApiProperty({ example: '4915123456789@s.whatsapp.net', description: 'Who reacted (this number for our own reactions)' })
  sender_jid: string;
}

export class MessageResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  conversation_id: string;

  @ApiProperty({ enum: MESSAGE_DIRECTIONS })
  direction: MessageDirection;

  @ApiProperty({
    nullable: true,
    type: String,
    example: '3EB0C767D26A1D8F4F21',
    description: "The channel's message id (deduplicate on it); null until an outbound message is sent",
  })
  chat_message_id: string | null;

  @ApiProperty({ example: '4915123456789@s.whatsapp.net' })
  sender_jid: string;

  @ApiProperty({ example: 'Ada', description: 'May be empty' })
  sender_name: string;

  @ApiProperty({
    enum: MESSAGE_TYPES,
    example: 'document',
    description: 'The coarse class: `image` for images and stickers, `document` for documents, audio, voice notes and video, `text` for the rest (see `kind`)',
  })
  message_type: MessageType;

  @ApiProperty({ enum: MESSAGE_KIND_NAMES, example: 'voice', description: 'What the message is, precisely' })
  kind: MessageKind;

  @ApiProperty({
    example: '',
    description: 'Text, or the caption of media; for a location, contact cards, a poll or an unsupported message a readable rendering (`[a call]`)',
  })
  content: string;

  @ApiProperty({
    example: '/api/media/6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d/8d3e5f7a9b1c2d4e.ogg',
    description: 'Path `/api/media/<workspace>/<file>` of stored media, or empty',
  })
  media_url: string;

  @ApiProperty({ example: 'audio/ogg; codecs=opus', description: 'Media MIME type, or empty' })
  mime_type: string;

  @ApiProperty({ example: '', description: 'Document file name, or empty' })
  file_name: string;

  @ApiProperty({ type: 'integer', example: 18342, description: 'Media size in bytes, or 0' })
  file_size: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 2_147_483_647,
    example: 7,
    description:
      'Playing time of audio, voice notes and video in whole seconds (a 7-second voice note: 7), as the channel gave it or read from the file; 0 for other kinds or when unknown',
  })
  duration_s: number;

  @ApiProperty({ description: 'The `chat_message_id` of the message this one replies to, or empty', example: '3EB0A1B2C3D4E5F60718' })
  quoted_message_id: string;

  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    example: '2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b',
    description: 'Our `id` of the quoted message, when the inbox holds it',
  })
  quoted_id: string | null;

  @ApiProperty({ type: [String], description: 'Jids the message mentions (groups)', example: ['4915198765432@s.whatsapp.net'] })
  mentions: string[];

  @ApiProperty({
    type: LocationResponse,
    nullable: true,
    example: { latitude: 52.520008, longitude: 13.404954, name: 'Alexanderplatz', address: '10178 Berlin', url: '' },
    description: "A `location` message's place (a live location: its first position); null for other kinds",
  })
  location: LocationResponse | null;

  @ApiProperty({
    type: [ContactCardResponse],
    nullable: true,
    example: [
      {
        name: 'Ada Lovelace',
        phones: ['4915123456789'],
        vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nTEL;type=CELL;waid=4915123456789:+4915123456789\nEND:VCARD',
      },
    ],
    description: "A `contacts` message's cards; null for other kinds",
  })
  contacts: ContactCardResponse[] | null;

  @ApiProperty({
    type: PollResponse,
    nullable: true,
    example: { question: 'Which day suits you?', options: ['Monday', 'Tuesday'], multiple: false },
    description: "A `poll` message's question and options; null for other kinds",
  })
  poll: PollResponse | null;

  @ApiProperty({
    type: ReplyChoiceResponse,
    nullable: true,
    example: null,
    description: 'On a tapped reply button, list row or quick reply (a `text` message whose content is its title): what was tapped',
  })
  reply: ReplyChoiceResponse | null;

  @ApiProperty({
    type: [ReactionResponse],
    example: [{ emoji: '👍', sender_jid: '4915123456789@s.whatsapp.net' }],
    description: 'One per person who reacted: their current emoji',
  })
  reactions: ReactionResponse[];

  @ApiProperty({ example: false, description: 'Its sender edited it (content is the new text)' })
  edited: boolean;

  @ApiProperty({ example: false, description: 'Its sender deleted it for everyone; its content is kept for the workspace' })
  deleted: boolean;

  @ApiProperty({ enum: MESSAGE_STATUSES, example: 'delivered', description: 'Only moves forward: pending → sent → delivered → read, or failed' })
  status: MessageStatus;

  @ApiProperty({ nullable: true, type: String, example: null, description: 'Why the message failed' })
  error: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' })
  timestamp: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    example: 42,
    description:
      "The message's place in its conversation: 1, 2, 3, … in the order the service stored them, strictly increasing and without gaps " +
      '(a missing number is a message you have not seen: fetch it with `GET /api/conversations/{id}/messages?after_seq=`). ' +
      'The same number on the live events and the webhook events of the message.',
  })
  seq: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 3,
    description:
      "Only on a send's answer while the message waits in its number's outbound queue (`status` `pending`): its 1-based place in the " +
      'queue (1: next). The message moves to `sent` at its turn (`message.updated`, `message.status`); `GET /api/chat/queue` gives the current places',
  })
  queue_position?: number;
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

  @ApiProperty({ type: [String], format: 'uuid', description: 'Ids of the workspace labels on the contact (`GET /api/labels` names them)' })
  label_ids: string[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}
