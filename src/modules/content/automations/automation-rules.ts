import { ApiError } from '../../../infra/http/api-error.js';
import { isUuid } from '../../inbox/dto/id.pipe.js';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../../inbox/entities/conversation.entity.js';
import { MESSAGE_TYPES } from '../../inbox/entities/message.entity.js';
import { phoneDigits } from '../../inbox/jid.js';
import { MESSAGE_KIND_NAMES } from '../../inbox/message-kinds.js';
import { areTemplateParameters, TEMPLATE_PARAMETERS_RULE } from '../../inbox/messages/outgoing-draft.js';

/**
 * The automation shape of docs/content.md#automations and its validation: every condition and action is
 * checked and normalised here (only known keys are kept), and an unknown field, op or action is a
 * 400 that names it and lists what is allowed.
 */
export const AUTOMATION_TRIGGERS = ['message.inbound', 'conversation.created'] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];
export const MATCH_MODES = ['all', 'any'] as const;
export type MatchMode = (typeof MATCH_MODES)[number];
export const CONDITION_FIELDS = ['content', 'chat_phone', 'is_group', 'message_type', 'kind'] as const;
export const CONDITION_OPS = ['contains', 'equals', 'starts_with', 'matches'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
export const ACTION_TYPES = ['reply', 'reply_template', 'assign', 'answer_from_knowledge', 'mark_read', 'add_label', 'set_status'] as const;

export const MAX_CONDITIONS = 20;
export const MAX_ACTIONS = 10;
export const MAX_CONDITION_VALUE = 1000;
export const MAX_PATTERN = 500;
export const MAX_REPLY = 4096;
/** `set_status` with `snoozed`: for 1 minute up to 365 days (the PATCH route's limit). */
export const MAX_SNOOZE_MINUTES = 525_600;

export type Condition =
  { field: 'content' | 'chat_phone' | 'message_type' | 'kind'; op: ConditionOp; value: string } | { field: 'is_group'; op: 'equals'; value: boolean };

export type Action =
  | { type: 'reply'; body: string }
  | { type: 'reply_template'; template_id: string; parameters: string[] }
  | { type: 'assign'; user_id: string | null }
  | { type: 'answer_from_knowledge'; min_rank?: number }
  | { type: 'mark_read' }
  | { type: 'add_label'; label_id: string }
  | { type: 'set_status'; status: ConversationStatus; snooze_minutes?: number };

/** Flags of every `matches` pattern: case-insensitive, like the other ops. */
export const PATTERN_FLAGS = 'i';

const bad = (text: string): ApiError => ApiError.badRequest(text);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const named = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value.slice(0, 50)) : String(value));
const list = (values: readonly string[]): string => values.join(', ');

export function parseConditions(raw: unknown): Condition[] {
  if (!Array.isArray(raw)) throw bad('conditions must be an array of {field, op, value}');
  if (raw.length > MAX_CONDITIONS) throw bad(`conditions: at most ${MAX_CONDITIONS}`);
  return raw.map((item, index) => parseCondition(item, `conditions[${index}]`));
}

function parseCondition(item: unknown, at: string): Condition {
  if (!isObject(item)) throw bad(`${at} must be an object {field, op, value}`);
  const { field, op, value } = item;
  if (!(CONDITION_FIELDS as readonly unknown[]).includes(field)) {
    throw bad(`${at}.field: unknown field ${named(field)} (one of ${list(CONDITION_FIELDS)})`);
  }
  if (!(CONDITION_OPS as readonly unknown[]).includes(op)) throw bad(`${at}.op: unknown op ${named(op)} (one of ${list(CONDITION_OPS)})`);
  const checkedOp = op as ConditionOp;
  if (field === 'is_group') {
    if (checkedOp !== 'equals') throw bad(`${at}.op: is_group supports only equals`);
    if (typeof value !== 'boolean') throw bad(`${at}.value must be true or false for is_group`);
    return { field, op: checkedOp, value };
  }
  const max = checkedOp === 'matches' ? MAX_PATTERN : MAX_CONDITION_VALUE;
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw bad(`${at}.value must be a non-empty string of at most ${max} characters`);
  }
  if (checkedOp === 'matches') {
    try {
      new RegExp(value, PATTERN_FLAGS);
    } catch (error) {
      throw bad(`${at}.value: ${(error as Error).message}`);
    }
    return { field: field as 'content', op: checkedOp, value };
  }
  if (field === 'message_type' && checkedOp === 'equals' && !(MESSAGE_TYPES as readonly string[]).includes(value.trim().toLowerCase())) {
    throw bad(`${at}.value: message_type is one of ${list(MESSAGE_TYPES)}`);
  }
  if (field === 'kind' && checkedOp === 'equals' && !(MESSAGE_KIND_NAMES as readonly string[]).includes(value.trim().toLowerCase())) {
    throw bad(`${at}.value: kind is one of ${list(MESSAGE_KIND_NAMES)}`);
  }
  if (field === 'chat_phone') {
    // Phone numbers are stored as digits: compare digits. A whole number or its start is written as
    // contacts store it (phoneDigits: no trunk zero, no 00 prefix); any other part as its digits.
    const digits = checkedOp === 'equals' || checkedOp === 'starts_with' ? phoneDigits(value) : value.replace(/\D/g, '');
    if (!digits) throw bad(`${at}.value must contain the digits of a phone number for chat_phone`);
    return { field, op: checkedOp, value: digits };
  }
  return { field: field as 'content', op: checkedOp, value };
}

export function parseActions(raw: unknown): Action[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_ACTIONS) {
    throw bad(`actions must be an array of 1 to ${MAX_ACTIONS} actions {type, ...}`);
  }
  return raw.map((item, index) => parseAction(item, `actions[${index}]`));
}

function parseAction(item: unknown, at: string): Action {
  if (!isObject(item)) throw bad(`${at} must be an object {type, ...}`);
  const { type } = item;
  switch (type) {
    case 'reply': {
      const body = typeof item.body === 'string' ? item.body.trim() : '';
      if (!body || body.length > MAX_REPLY) throw bad(`${at}.body must be a non-empty string of at most ${MAX_REPLY} characters`);
      return { type, body };
    }
    case 'reply_template': {
      if (!isUuid(item.template_id)) throw bad(`${at}.template_id must be a template id`);
      // Absent is none; `null` is refused like any value that is not a list.
      const parameters = item.parameters === undefined ? [] : item.parameters;
      if (!areTemplateParameters(parameters)) throw bad(`${at}.parameters ${TEMPLATE_PARAMETERS_RULE}`);
      return { type, template_id: item.template_id.toLowerCase(), parameters };
    }
    case 'assign': {
      const userId = item.user_id;
      if (userId !== null && !isUuid(userId)) throw bad(`${at}.user_id must be a member's user id, or null to unassign`);
      return { type, user_id: userId?.toLowerCase() ?? null };
    }
    case 'answer_from_knowledge': {
      const minRank = item.min_rank;
      if (minRank === undefined) return { type };
      if (typeof minRank !== 'number' || !Number.isFinite(minRank) || minRank < 0 || minRank > 1) {
        throw bad(`${at}.min_rank must be a number from 0 to 1`);
      }
      return { type, min_rank: minRank };
    }
    case 'mark_read':
      return { type };
    case 'add_label':
      if (!isUuid(item.label_id)) throw bad(`${at}.label_id must be a label id`);
      return { type, label_id: item.label_id.toLowerCase() };
    case 'set_status':
      return parseSetStatus(item, at);
    default:
      throw bad(`${at}.type: unknown action ${named(type)} (one of ${list(ACTION_TYPES)})`);
  }
}

function parseSetStatus(item: Record<string, unknown>, at: string): Action {
  const { status, snooze_minutes: minutes } = item;
  if (!(CONVERSATION_STATUSES as readonly unknown[]).includes(status)) throw bad(`${at}.status must be open, pending, snoozed or closed`);
  if (status !== 'snoozed') {
    if (minutes !== undefined) throw bad(`${at}.snooze_minutes is only for status snoozed`);
    return { type: 'set_status', status: status as ConversationStatus };
  }
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_SNOOZE_MINUTES) {
    throw bad(`${at}.snooze_minutes must be an integer from 1 to ${MAX_SNOOZE_MINUTES} (required for status snoozed)`);
  }
  return { type: 'set_status', status: 'snoozed', snooze_minutes: minutes };
}
