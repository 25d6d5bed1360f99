// Wire shapes of the routes the Console calls (docs/*.md and the OpenAPI document at /api/docs).

import type { MessageKind, MessageType } from './message-types.js';

export type Role = 'owner' | 'admin' | 'agent';

export interface User {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  created_at: string;
}

export interface Workspace {
  id: string;
  name: string;
  subscription_status?: string;
  created_at?: string;
  role: Role;
}

export interface Me {
  user: User;
  workspaces: Workspace[];
}

export interface Member {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  joined_at: string;
}

export interface Invite {
  id: string;
  email: string;
  role: Role;
  created_at?: string;
  expires_at: string;
}

export interface ApiKey {
  id: string;
  name: string;
  scope: 'read' | 'write';
  prefix: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  key?: string;
}

export interface Conversation {
  id: string;
  channel: 'scan' | 'meta';
  chat_jid: string;
  chat_name: string;
  chat_phone: string;
  is_group: boolean;
  contact_id: string | null;
  assignee_id: string | null;
  status: ConversationStatus;
  /** When a snoozed conversation opens again by itself; null unless `status` is `snoozed`. */
  snoozed_until: string | null;
  label_ids: string[];
  unread_count: number;
  last_message_at: string;
  last_message_preview: string;
}

export type ConversationStatus = 'open' | 'pending' | 'snoozed' | 'closed';

/** `GET /api/conversations/counts?status=`: status counts are totals; the rest count within `status`. */
export interface ConversationCounts {
  status: Record<ConversationStatus, number>;
  assignee: { mine: number; unassigned: number; all: number };
  unread: number;
  labels: { label_id: string; count: number }[];
}

export type MessageStatus = 'pending' | 'sent' | 'delivered' | 'read' | 'failed';

export interface Message {
  id: string;
  conversation_id: string;
  direction: 'inbound' | 'outbound';
  chat_message_id: string | null;
  sender_jid: string;
  sender_name: string;
  /** The coarse class (the contract's); `kind` says precisely what the message is. */
  message_type: MessageType;
  kind: MessageKind;
  /** Text or caption; for a location, contact cards, a poll or an unsupported message a readable rendering. */
  content: string;
  media_url: string;
  mime_type: string;
  file_name: string;
  file_size: number;
  /** Playing time of audio, voice notes and video; 0 otherwise. */
  duration_s: number;
  /** The channel id of the message this one replies to, or ''. */
  quoted_message_id: string;
  /** Our id of the quoted message, when the inbox holds it. */
  quoted_id: string | null;
  mentions: string[];
  location: MessageLocation | null;
  contacts: ContactCard[] | null;
  poll: MessagePoll | null;
  /** One per person who reacted: their current emoji. */
  reactions: MessageReaction[];
  edited: boolean;
  /** Deleted for everyone by its sender; the content is kept for the workspace. */
  deleted: boolean;
  status: MessageStatus;
  error: string | null;
  timestamp: string;
}

export interface MessageLocation {
  latitude: number;
  longitude: number;
  name: string;
  address: string;
  url: string;
}

export interface ContactCard {
  name: string;
  /** Digits only. */
  phones: string[];
  vcard: string;
}

export interface MessagePoll {
  question: string;
  options: string[];
  multiple: boolean;
}

export interface MessageReaction {
  emoji: string;
  sender_jid: string;
}

export interface MessagePage {
  messages: Message[];
  next_cursor: string | null;
}

export interface Contact {
  id: string;
  phone: string | null;
  lid: string | null;
  name: string | null;
  /** The labels put on the contact (`GET /api/labels`). */
  label_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface SessionState {
  connected: boolean;
  logged_in: boolean;
  qr_pending: boolean;
  jid?: string;
}

/** The WhatsApp server the scan channel connects to (absent from older servers). */
export interface ChatEndpoint {
  /** The configured WebSocket URL (WA_WEBSOCKET_URL). */
  url: string;
  /** It is WhatsApp's own (wss://web.whatsapp.com/ws/chat), not a simulator or a test server. */
  default: boolean;
  /** The service runs outside production (NODE_ENV is not `production`). */
  development: boolean;
}

/** What a number used of its caps in the last 24 hours, and its outbound queue (`GET /api/chat/status`'s `limits`). */
export interface SendUsage {
  first_contacts: { used: number; cap: number; resets_at: string | null };
  unanswered: { cap: number; chats_at_cap: number };
  queue: { depth: number; oldest_queued_at: string | null };
}

export type TypingMode = 'automations' | 'all' | 'off';

export interface SendSettingsValues {
  min_gap_ms: number;
  jitter_ms: number;
  per_minute: number;
  burst: number;
  typing: TypingMode;
  first_contacts_per_day: number;
  unanswered_per_chat: number;
}

/** `GET/PATCH /api/chat/limits`. */
export interface SendLimits extends SendSettingsValues {
  defaults: SendSettingsValues;
  usage: SendUsage;
}

/** `GET /api/chat/queue`. */
export interface SendQueue {
  depth: number;
  oldest_queued_at: string | null;
  messages: { id: string; conversation_id: string; position: number; queued_at: string; not_before: string | null }[];
}

export interface ChatStatus extends SessionState {
  /** Why the session stopped, or why the number got unlinked (then `logged_in` is false). */
  error?: string;
  /** Caps and queue (absent from servers before sending limits). */
  limits?: SendUsage;
  sync?: { state: 'idle' | 'running' | 'done'; progress: number };
  endpoint?: ChatEndpoint;
  /** WhatsApp's passkey check in progress (only with the service's passkey ceremony on, docs/passkey.md). */
  passkey?: PasskeyStatus | null;
}

/** The passkey check as the status shows it, during its three states. */
export interface PasskeyStatus {
  state: 'passkey_required' | 'passkey_assertion' | 'passkey_confirmation';
  explanation: string;
  /** The code the phone shows (`XXXX-XXXX`), only in `passkey_confirmation`. */
  code: string | null;
  /** When the check gives up (RFC 3339). */
  expires_at: string;
}

/** `POST /api/chat/passkey/link`: the one-time link that opens WhatsApp Web for the passkey extension. */
export interface PasskeyLink {
  url: string;
  expires_at: string;
}

export interface QrState {
  pending: boolean;
  code?: string;
  image: string;
  /** When this code stops being valid (RFC 3339); absent without a code, and from older servers. */
  expires_at?: string;
  error?: string;
  message?: string;
}

export interface SyncProgress {
  progress: number;
  chats: number;
  messages: number;
  done: boolean;
}

export interface InboxStats {
  timezone: string;
  days: { date: string; inbound: number; outbound: number }[];
  open: number;
  unassigned: number;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** The channels whose events it receives; null: every channel. */
  channels: string[] | null;
  /** Whether events of group chats reach it. */
  include_groups: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  /** Since when every attempt has failed; null after a success. */
  failing_since: string | null;
}

export interface WebhookDelivery {
  id: string;
  delivery_id: string;
  event: string;
  status: 'delivered' | 'retrying' | 'failed';
  attempt: number;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookStats {
  /** Not yet delivered nor failed for good (due, waiting for a retry, or held for media). */
  pending: number;
  /** Of `pending`: held until their message's media is stored. */
  held: number;
  delivered: number;
  failed: number;
  /** 0 when nothing is pending. */
  oldest_pending_age_seconds: number;
  /** The window `delivered` and `failed` count over, in hours. */
  window_hours: number;
}

export interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  body: string;
  /** The provider's review status (Cloud API); null for a local template. */
  status: string | null;
  quality: string | null;
  provider_id: string | null;
}

export interface AutomationCondition {
  field: string;
  op: string;
  /** A boolean for `is_group`, a string otherwise. */
  value: string | boolean;
}

export interface AutomationAction {
  type: string;
  body?: string;
  template_id?: string;
  parameters?: string[];
  user_id?: string | null;
  min_rank?: number;
  /** `add_label`. */
  label_id?: string;
  /** `set_status`: open, pending, snoozed or closed; `snooze_minutes` with snoozed only. */
  status?: string;
  snooze_minutes?: number;
}

export interface Automation {
  id: string;
  name: string;
  enabled: boolean;
  trigger: string;
  match: 'all' | 'any';
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  created_at: string;
  updated_at: string;
}

export interface Article {
  id: string;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

/** One result of `GET /api/knowledge/search`, best first: no times, a rank from 0 to 1. */
export interface ArticleHit {
  id: string;
  title: string;
  body: string;
  rank: number;
}

export interface MetaSettings {
  phone_number_id: string | null;
  waba_id: string | null;
  /** As the provider displays it; empty while not configured. */
  display_phone_number: string;
  /** The business name the provider verified; empty when unknown. */
  verified_name: string;
  connected: boolean;
  token_set: boolean;
  /** Why the channel is disconnected (the provider refused the token), when it is. */
  error: string | null;
}

export interface Providers {
  password: boolean;
  google: boolean;
}
