import { MESSAGE_KINDS, MESSAGE_TYPES } from '../../api/message-types.js';
import type { Automation, AutomationAction } from '../../api/types.js';

// The words of the automation shape (docs/content.md#automations), with the labels the form and the list show.

export const TRIGGERS: [string, string][] = [
  ['message.inbound', 'a message arrives'],
  ['conversation.created', 'a new conversation starts'],
];

export const FIELDS: [string, string][] = [
  ['content', 'the text'],
  ['chat_phone', 'the phone number'],
  ['is_group', 'is a group (true/false)'],
  ['message_type', `the type (${MESSAGE_TYPES.join(', ')})`],
  ['kind', `the precise kind (${MESSAGE_KINDS.join(', ')})`],
];

export const OPS: [string, string][] = [
  ['contains', 'contains'],
  ['equals', 'equals'],
  ['starts_with', 'starts with'],
  ['matches', 'matches the pattern'],
];

export const ACTIONS: [string, string][] = [
  ['reply', 'reply with a text'],
  ['reply_template', 'reply with a template'],
  ['assign', 'assign to a member'],
  ['answer_from_knowledge', 'answer from the knowledge articles'],
  ['mark_read', 'mark the conversation read'],
  ['add_label', 'add a label'],
  ['set_status', 'set the status'],
];

/** What `set_status` may set; snoozed also takes `snooze_minutes`. */
export const STATUSES: [string, string][] = [
  ['open', 'open'],
  ['pending', 'pending'],
  ['snoozed', 'snoozed (for some minutes)'],
  ['closed', 'closed'],
];

/** The longest snooze an automation may set: 365 days, in minutes. */
export const MAX_SNOOZE_MINUTES = 525_600;

const label = (pairs: [string, string][], value: string): string => pairs.find(([v]) => v === value)?.[1] ?? value;

/** A sentence for one automation: "When a message arrives and the text contains "price": reply …". */
export function describe(a: Automation): string {
  const conditions = a.conditions.map((c) => `${label(FIELDS, c.field)} ${label(OPS, c.op)} “${c.value}”`);
  const when = conditions.length ? ` and ${conditions.join(a.match === 'all' ? ' and ' : ' or ')}` : '';
  return `When ${label(TRIGGERS, a.trigger)}${when}: ${a.actions.map(describeAction).join(', then ')}.`;
}

/** "set the status to snoozed for 60 minutes"; other actions by their name alone. */
function describeAction(x: AutomationAction): string {
  if (x.type !== 'set_status' || !x.status) return label(ACTIONS, x.type);
  return `set the status to ${x.status}${x.status === 'snoozed' ? ` for ${x.snooze_minutes} minutes` : ''}`;
}
