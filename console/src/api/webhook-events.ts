// The webhook event types, as the Console offers them. A copy: the Console's build does not reach
// the service's code (and rebuilds only when console/ changes). test/webhooks/webhook-event-catalogue.spec.ts
// checks that it equals the service's catalogue (src/modules/webhooks/events/webhook-event.catalogue.ts).
export interface WebhookEventOption {
  name: string;
  /** What it reports, in a few words. */
  label: string;
  /** Ticked for a new webhook (what the service subscribes a webhook created without `events` to). */
  byDefault: boolean;
}

export const WEBHOOK_EVENTS: readonly WebhookEventOption[] = [
  { name: 'scan.chat', label: 'messages to the QR-linked number', byDefault: true },
  { name: 'meta.chat', label: 'Cloud API callbacks', byDefault: true },
  { name: 'message.status', label: 'delivery and read receipts of sent messages', byDefault: false },
  { name: 'message.sent', label: 'new outbound messages, whoever wrote them', byDefault: false },
  { name: 'message.updated', label: 'edited messages', byDefault: false },
  { name: 'message.deleted', label: 'deleted messages', byDefault: false },
  { name: 'message.reaction', label: 'reactions added or removed', byDefault: false },
  { name: 'conversation.updated', label: 'conversation status, assignee or label changes', byDefault: false },
  { name: 'session.status', label: 'number connection changes', byDefault: false },
];
