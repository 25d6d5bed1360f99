import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { InboxChangeKind, InboxChangeOf } from '../../inbox/changes/inbox-change.js';
import {
  conversationUpdatedPayload,
  messageDeletedPayload,
  messageReactionPayload,
  messageSentPayload,
  messageStatusPayload,
  messageUpdatedPayload,
} from './catalogue-payloads.js';
import { metaChatEvent } from './meta-chat.event.js';
import { scanChatPayload } from './scan-chat.payload.js';
import { sessionStatusPayload } from './session-status.payload.js';

/**
 * An event written from an inbox change, in the change's own transaction, by the catalogue's
 * producer (`InboxEventProducer`, inbox-event.producer.ts): declaring it is all such an event needs.
 */
export interface InboxChangeSourceOf<K extends InboxChangeKind> {
  change: K;
  /** Every change the event is made from, when more than `change` (`fromInboxChanges`). */
  changes?: readonly InboxChangeKind[];
  /** The event's JSON body for this change; null: this change makes no event (e.g. nothing moved). */
  payload(workspaceId: string, change: InboxChangeOf<K>): object | null;
}

/** A source from any one kind of inbox change. */
export type InboxChangeSource = { [K in InboxChangeKind]: InboxChangeSourceOf<K> }[InboxChangeKind];

/**
 * An event with a producer of its own, where the inbox-change one cannot do: the ingest hot path
 * (a group commit's events in one statement, deliveries held for media), or a source outside the
 * inbox (a channel's callbacks).
 */
export interface OwnProducerSource {
  /** The producer, by class and file. */
  producer: string;
  /** The builder the producer takes the event's body from (each calls its own with its own arguments). */
  payload: (...args: never[]) => unknown;
}

export interface WebhookEventDeclaration {
  /** A few words on what it reports: the Console's label for it. */
  label: string;
  /** What it reports, for the API document (one sentence, no final period). */
  description: string;
  /** The channel whose numbers it concerns; null: any channel. */
  channel: ChannelName | null;
  /** Subscribed when a webhook is created without `events`. */
  byDefault: boolean;
  source: InboxChangeSource | OwnProducerSource;
}

/** A source from an inbox change, with `payload` typed by its change. */
export const fromInboxChange = <K extends InboxChangeKind>(
  change: K,
  payload: (workspaceId: string, change: InboxChangeOf<K>) => object | null,
): InboxChangeSourceOf<K> => ({
  change,
  payload,
});

/**
 * A source from several kinds of inbox change (e.g. a conversation's status and its assignee, one
 * `conversation.updated`), with `payload` typed by their union.
 */
export const fromInboxChanges = <K extends InboxChangeKind>(
  changes: readonly [K, ...K[]],
  payload: (workspaceId: string, change: InboxChangeOf<K>) => object | null,
): InboxChangeSource =>
  // The producer calls `payload` only with changes of a kind in `changes`.
  ({ change: changes[0], changes, payload }) as unknown as InboxChangeSource;

/**
 * Every webhook event type, declared once: its name (the key: `X-Svc-Event`, the webhook's
 * `events`), what it reports, the channel, and who writes it with which payload. The webhook DTOs,
 * their validation and the API document take the list from here; the Console keeps a copy
 * (console/src/api/webhook-events.ts: its build reads console/ only), which a test compares.
 * Adding an event is adding an entry: one of an inbox change (`fromInboxChange`) needs nothing
 * else; one of its own producer names it.
 */
export const WEBHOOK_EVENT_CATALOGUE = {
  'scan.chat': {
    label: 'messages to the QR-linked number',
    description: 'every new message someone sends to the QR-linked number, as soon as it is stored (with media, once its file is)',
    channel: 'scan',
    byDefault: true,
    source: {
      producer:
        'ScanChatProducer (src/modules/webhooks/events/scan-chat.producer.ts): from ingest, a group commit’s in one statement, held while media downloads',
      payload: scanChatPayload,
    },
  },
  'meta.chat': {
    label: 'Cloud API callbacks',
    description: 'each Cloud API callback for the workspace’s numbers, forwarded as the provider sent it',
    channel: 'meta',
    byDefault: true,
    source: {
      producer: 'MetaChatForwarding (src/modules/meta/forwarding/meta-chat-forwarding.ts): in the transaction that marks the callback processed',
      payload: metaChatEvent,
    },
  },
  'message.status': {
    label: 'delivery and read receipts of sent messages',
    description: 'a message moved to sent, delivered, read or failed (with the channel’s reason), or a voice note, audio or video was played',
    channel: null,
    byDefault: false,
    source: fromInboxChange('message.status', messageStatusPayload),
  },
  'message.sent': {
    label: 'new outbound messages, whoever wrote them',
    description: 'an outbound message was stored: sent through the API, the Console, an automation, or from the linked phone itself',
    channel: null,
    byDefault: false,
    source: fromInboxChange('message.outbound', messageSentPayload),
  },
  'message.updated': {
    label: 'edited messages',
    description: 'a message was edited: its new text, the text before and who edited it',
    channel: null,
    byDefault: false,
    source: fromInboxChange('message.edited', messageUpdatedPayload),
  },
  'message.deleted': {
    label: 'deleted messages',
    description: 'a message was deleted for everyone, by its sender or through the API',
    channel: null,
    byDefault: false,
    source: fromInboxChange('message.deleted', messageDeletedPayload),
  },
  'message.reaction': {
    label: 'reactions added or removed',
    description: 'someone reacted to a message, changed the reaction or took it back',
    channel: null,
    byDefault: false,
    source: fromInboxChange('message.reaction', messageReactionPayload),
  },
  'conversation.updated': {
    label: 'conversation status, assignee or label changes',
    description: 'a conversation’s status, assignee or labels changed',
    channel: null,
    byDefault: false,
    source: fromInboxChanges(['conversation.status', 'conversation.assignee', 'conversation.labels'], conversationUpdatedPayload),
  },
  'session.status': {
    label: 'number connection changes',
    description:
      'the QR-linked number’s state changed (connected, reconnecting, logged out, passkey required, failed, stopped, …), or the Cloud API number was disconnected or its token refused',
    channel: null,
    byDefault: false,
    source: {
      producer:
        'SessionStatusProducer (src/modules/webhooks/events/session-status.producer.ts) from the scan session’s state changes; MetaSessionStatus (src/modules/meta/forwarding/meta-session-status.ts) from the Cloud settings',
      payload: sessionStatusPayload,
    },
  },
} as const satisfies Record<string, WebhookEventDeclaration>;

export type WebhookEventName = keyof typeof WEBHOOK_EVENT_CATALOGUE;

/** Every event name, in the catalogue's order (the order webhooks list their `events` in). */
export const WEBHOOK_EVENTS = Object.keys(WEBHOOK_EVENT_CATALOGUE) as readonly WebhookEventName[];

/**
 * What `POST /api/webhooks/{id}/test` sends: an event of no webhook's `events` (none subscribes to
 * it), sent to the one endpoint once and never retried.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What a webhook created without `events` receives. */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventName[] = WEBHOOK_EVENTS.filter((name) => WEBHOOK_EVENT_CATALOGUE[name].byDefault);

/** The catalogue as declarations, its entries' literal types aside (for code that reads any entry). */
export type WebhookEventCatalogue = Readonly<Partial<Record<WebhookEventName, WebhookEventDeclaration>>>;
