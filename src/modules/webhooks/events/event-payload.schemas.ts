import type { WebhookEventName } from './webhook-event.catalogue.js';

/** A JSON Schema (OpenAPI 3.1, draft 2020-12) of one event body, as the `webhooks` section shows it. */
export interface EventSchema {
  type: 'object';
  description: string;
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties?: boolean;
  example: Record<string, unknown>;
}

type Fields = Record<string, Record<string, unknown>>;

const uuid = (description: string): Record<string, unknown> => ({ type: 'string', format: 'uuid', description });
const str = (description: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: 'string', description, ...extra });
const int = (description: string): Record<string, unknown> => ({ type: 'integer', minimum: 0, description });
const bool = (description: string): Record<string, unknown> => ({ type: 'boolean', description });
const loose = (description: string): Record<string, unknown> => ({ type: ['object', 'null'], description });

/** Every field is always present (PAYLOADS of issue 38: '' / 0 / [] / null when unknown), so all are required. */
const schema = (description: string, properties: Fields, example: Record<string, unknown>): EventSchema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
  example,
});

const head = (event: string): Fields => ({
  event: { type: 'string', const: event, description: 'The type name itself (the `X-Svc-Event` header)' },
  channel: { type: 'string', enum: ['scan', 'meta'], description: 'The channel of the number concerned' },
  workspace_id: uuid('The workspace'),
  timestamp: str('When the change happened, RFC 3339 UTC to the second', { format: 'date-time' }),
});

/** The message fields beside the head: the REST message (`id` → `message_id`, `timestamp` → `sent_at`). */
const MESSAGE_FIELDS: Fields = {
  conversation_id: uuid('The conversation'),
  message_id: uuid('The API message id (the REST message `id`)'),
  chat_message_id: str("The channel's message id ('' before the channel gave one)"),
  chat_jid: str("The conversation's chat jid"),
  is_group: bool('The conversation is a group chat'),
  seq: int("The message's `seq` in its conversation: strictly increasing, gap-free for new messages (0 if none)"),
  direction: str('`inbound` or `outbound`', { enum: ['inbound', 'outbound'] }),
  sender_jid: { type: ['string', 'null'], description: 'Who wrote it' },
  sender_name: str('May be empty'),
  message_type: str('The coarse class: `text`, `image` or `document`', { enum: ['text', 'image', 'document'] }),
  kind: str(
    'What the message is, precisely (`text`, `image`, `video`, `audio`, `voice`, `document`, `sticker`, `location`, `contacts`, `poll`, `unsupported`)',
  ),
  content: str('Text, or the caption of media'),
  media_url: str('Path of stored media, or empty'),
  mime_type: str('Media MIME type, or empty'),
  file_name: str('Document file name, or empty'),
  file_size: int('Media size in bytes, or 0'),
  duration_s: int('Playing time in whole seconds, or 0'),
  quoted_message_id: str('The `chat_message_id` of the message this one replies to, or empty'),
  quoted_id: { type: ['string', 'null'], format: 'uuid', description: 'Our `id` of the quoted message, when the inbox holds it' },
  mentions: { type: 'array', items: { type: 'string' }, description: 'Jids the message mentions' },
  location: loose('A location message: as in the REST message, else null'),
  contacts: { type: ['array', 'null'], items: { type: 'object' }, description: 'Contact cards, else null' },
  poll: loose('A poll, else null'),
  reply: loose('The button or list choice this message answers, else null'),
  reactions: { type: 'array', items: { type: 'object' }, description: 'The reactions on the message, as in the REST message' },
  edited: bool('The message was edited'),
  deleted: bool('The message was revoked'),
  status: str('The delivery status (`pending`, `sent`, `delivered`, `read`, `failed`; inbound: `received`)'),
  error: { type: ['string', 'null'], description: "The channel's failure reason, else empty" },
  sent_at: str("The message's own time (the REST `timestamp`), RFC 3339", { format: 'date-time' }),
};

const WS = '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d';
const CONV = '2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b';
const MESSAGE_EXAMPLE = {
  channel: 'scan',
  workspace_id: WS,
  timestamp: '2026-01-01T12:00:05Z',
  conversation_id: CONV,
  message_id: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  chat_message_id: '3EB0C767D26A1D8F4F21',
  chat_jid: '4915123456789@s.whatsapp.net',
  is_group: false,
  seq: 42,
  direction: 'outbound',
  sender_jid: '4915111111111@s.whatsapp.net',
  sender_name: '',
  message_type: 'text',
  kind: 'text',
  content: 'Hello',
  media_url: '',
  mime_type: '',
  file_name: '',
  file_size: 0,
  duration_s: 0,
  quoted_message_id: '',
  quoted_id: null,
  mentions: [],
  location: null,
  contacts: null,
  poll: null,
  reply: null,
  reactions: [],
  edited: false,
  deleted: false,
  status: 'sent',
  error: '',
  sent_at: '2026-01-01T12:00:00Z',
};

const messageEvent = (event: string, description: string, own: Fields, example: Record<string, unknown>): EventSchema =>
  schema(description, { ...head(event), ...MESSAGE_FIELDS, ...own }, { event, ...MESSAGE_EXAMPLE, ...example });

const CONVERSATION_FIELDS: Fields = {
  conversation_id: uuid('The conversation (the REST conversation `id`)'),
  changes: { type: 'array', items: { type: 'string', enum: ['status', 'assignee', 'labels'] }, description: 'What changed' },
  previous_status: str('The status before'),
  previous_assignee_id: { type: ['string', 'null'], format: 'uuid', description: 'The assignee before' },
  previous_label_ids: {
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    description: 'The labels before (the same as `label_ids` unless `changes` has `labels`)',
  },
  chat_jid: str("The conversation's chat jid"),
  chat_name: { type: ['string', 'null'], description: 'The chat name' },
  chat_phone: { type: ['string', 'null'], description: 'The phone of a one-to-one chat' },
  is_group: bool('The conversation is a group chat'),
  contact_id: { type: ['string', 'null'], format: 'uuid', description: 'The contact record' },
  assignee_id: { type: ['string', 'null'], format: 'uuid', description: 'The assignee after the change' },
  status: str('The status after the change (`open`, `pending`, `snoozed`, `closed`)'),
  snoozed_until: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'When a `snoozed` conversation opens again by itself; null for every other status',
  },
  label_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'The labels on it after the change (`GET /api/labels` names them)' },
  unread_count: int('Unread inbound messages'),
  last_message_at: { type: ['string', 'null'], format: 'date-time', description: 'Time of the last message' },
  last_message_preview: { type: ['string', 'null'], description: 'Start of the last message' },
};

const SCAN_CHAT = schema(
  'A new message someone sent to the QR-linked number (the contract’s `scan.chat`; `event` is `message.inbound`).',
  {
    event: { type: 'string', const: 'message.inbound', description: 'Always `message.inbound`' },
    channel: { type: 'string', const: 'scan', description: 'Always `scan`' },
    workspace_id: uuid('The workspace'),
    conversation_id: uuid('The conversation'),
    seq: int("The message's `seq` in its conversation (0 if none)"),
    chat_message_id: str("The channel's message id: deduplicate on it"),
    chat_jid: str('The chat jid'),
    sender_jid: str('Who wrote it'),
    sender_name: str('Their push name, or empty'),
    content: str('Text, or the caption of media'),
    message_type: str('The coarse class', { enum: ['text', 'image', 'document'] }),
    kind: str('What the message is, precisely'),
    media_url: str('Path of stored media, or empty'),
    mime_type: str('Media MIME type, or empty'),
    file_name: str('Document file name, or empty'),
    file_size: int('Media size in bytes, or 0'),
    timestamp: str("The message's time, RFC 3339 UTC to the second", { format: 'date-time' }),
    is_group: bool('A group chat'),
    chat_name: str('The chat name, or empty'),
    chat_phone: str('The phone of a one-to-one chat, or empty'),
    duration_s: int('Playing time in whole seconds, or 0'),
    quoted_message_id: str('The `chat_message_id` this one replies to, or empty'),
    mentions: { type: 'array', items: { type: 'string' }, description: 'Jids mentioned' },
    location: loose('A location, else null'),
    contacts: { type: ['array', 'null'], items: { type: 'object' }, description: 'Contact cards, else null' },
    poll: loose('A poll, else null'),
    reply: loose('The choice this message answers, else null'),
  },
  {
    event: 'message.inbound',
    channel: 'scan',
    workspace_id: WS,
    conversation_id: CONV,
    seq: 41,
    chat_message_id: '3EB0C767D26A1D8F4F21',
    chat_jid: '4915123456789@s.whatsapp.net',
    sender_jid: '4915123456789@s.whatsapp.net',
    sender_name: 'Ada',
    content: 'Hi there',
    message_type: 'text',
    kind: 'text',
    media_url: '',
    mime_type: '',
    file_name: '',
    file_size: 0,
    timestamp: '2026-01-01T12:00:00Z',
    is_group: false,
    chat_name: 'Ada',
    chat_phone: '4915123456789',
    duration_s: 0,
    quoted_message_id: '',
    mentions: [],
    location: null,
    contacts: null,
    poll: null,
    reply: null,
  },
);

const SCHEMAS = {
  'scan.chat': SCAN_CHAT,
  'meta.chat': {
    type: 'object',
    description: 'A Cloud API callback, forwarded exactly as the provider sent it (`object`, `entry[]`).',
    properties: {
      object: { type: 'string', description: 'Always `whatsapp_business_account`' },
      entry: { type: 'array', items: { type: 'object' }, description: 'The callback entries' },
    },
    required: ['object', 'entry'],
    additionalProperties: true,
    example: {
      object: 'whatsapp_business_account',
      entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp' } }] }],
    },
  },
  'webhook.test': schema(
    'Sent by `POST /api/webhooks/{id}/test` to check the endpoint; never retried.',
    {
      event: { type: 'string', const: 'webhook.test', description: 'Always `webhook.test`' },
      workspace_id: uuid('The workspace'),
      webhook_id: uuid('The webhook'),
      timestamp: str('When it was sent, RFC 3339', { format: 'date-time' }),
    },
    { event: 'webhook.test', workspace_id: WS, webhook_id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f', timestamp: '2026-01-01T12:00:00Z' },
  ),
  'message.status': messageEvent(
    'message.status',
    'An outbound message moved to sent, delivered, read, played or failed.',
    {
      status: str('The new status; `played`: a voice note, audio or video was played', { enum: ['sent', 'delivered', 'read', 'played', 'failed'] }),
      previous_status: str('The stored status before, or empty'),
      error: str("The channel's reason with `failed`, else empty"),
    },
    { status: 'delivered', previous_status: 'sent' },
  ),
  'message.sent': messageEvent(
    'message.sent',
    'A new outbound message, whoever wrote it.',
    { source: str('Who sent it', { enum: ['api', 'console', 'automation', 'phone'] }) },
    { source: 'api', status: 'pending' },
  ),
  'message.updated': messageEvent(
    'message.updated',
    'A message was edited.',
    {
      content: str('The new text'),
      previous_content: str('The text before, or empty'),
      edited_by: str("Empty for our own edit through the API, else the editor's jid"),
    },
    { content: 'Hello!', previous_content: 'Hello', edited_by: '', edited: true },
  ),
  'message.deleted': messageEvent(
    'message.deleted',
    'A message was revoked (deleted for everyone).',
    { deleted_by: str('Empty when the workspace deleted it through the API, else the jid that revoked it') },
    { deleted_by: '4915123456789@s.whatsapp.net', deleted: true },
  ),
  'message.reaction': messageEvent(
    'message.reaction',
    'A reaction was added to a message or taken back.',
    {
      emoji: str('The reaction, empty when taken back'),
      reactor_jid: str('Who reacted'),
      removed: bool('The reaction was taken back'),
    },
    { emoji: '👍', reactor_jid: '4915123456789@s.whatsapp.net', removed: false },
  ),
  'conversation.updated': schema(
    'A conversation’s status, assignee or labels changed (only when something really changed).',
    { ...head('conversation.updated'), ...CONVERSATION_FIELDS },
    {
      event: 'conversation.updated',
      channel: 'scan',
      workspace_id: WS,
      timestamp: '2026-01-01T12:00:00Z',
      conversation_id: CONV,
      changes: ['assignee'],
      previous_status: 'open',
      previous_assignee_id: null,
      chat_jid: '4915123456789@s.whatsapp.net',
      chat_name: 'Ada',
      chat_phone: '4915123456789',
      is_group: false,
      contact_id: null,
      assignee_id: 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70',
      status: 'open',
      snoozed_until: null,
      label_ids: [],
      previous_label_ids: [],
      unread_count: 0,
      last_message_at: '2026-01-01T11:59:00Z',
      last_message_preview: 'Hi there',
    },
  ),
  'session.status': schema(
    'The number’s connection state changed.',
    {
      ...head('session.status'),
      state: str(
        'scan: the `state` of GET /api/chat/status (connected, reconnecting, logged_out, passkey_required, failed, stopped, …); meta: connected, disconnected, token_refused',
      ),
      previous_state: str('The state before, or empty'),
      since: str('When this state began, RFC 3339', { format: 'date-time' }),
      error: str('The explanation when something needs a person, else empty'),
      connected: bool('The number is connected'),
      logged_in: bool('scan: linked; meta: settings present'),
      jid: str("scan: the linked number's jid, else empty"),
      phone_number_id: str("meta: the Cloud number's id, else empty"),
    },
    {
      event: 'session.status',
      channel: 'scan',
      workspace_id: WS,
      timestamp: '2026-01-01T12:00:00Z',
      state: 'logged_out',
      previous_state: 'connected',
      since: '2026-01-01T12:00:00Z',
      error: 'the phone removed this linked device: link it again',
      connected: false,
      logged_in: false,
      jid: '',
      phone_number_id: '',
    },
  ),
} satisfies Record<string, EventSchema>;

/** Every event name (catalogue and `webhook.test`) with its body schema; a test checks none is missing. */
export const WEBHOOK_EVENT_SCHEMAS: Readonly<Record<WebhookEventName | 'webhook.test', EventSchema>> = SCHEMAS;

/** The event names with a schema, the catalogue's and those of entries still being added. */
export const SCHEMA_EVENT_NAMES = Object.keys(SCHEMAS);
