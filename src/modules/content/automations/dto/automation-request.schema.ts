import type { SchemaRules } from '../../../../infra/http/schema-rules.js';
import { NON_BLANK } from '../../../../infra/http/schema-rules.js';
import { MESSAGE_TYPES } from '../../../inbox/entities/message.entity.js';
import { MESSAGE_KIND_NAMES } from '../../../inbox/message-kinds.js';
import { MAX_TEMPLATE_PARAMETER_LENGTH, MAX_TEMPLATE_PARAMETERS } from '../../../inbox/dto/message.dto.js';
import {
  ACTION_TYPES,
  type CONDITION_FIELDS,
  type CONDITION_OPS,
  MAX_CONDITION_VALUE,
  MAX_PATTERN,
  MAX_REPLY,
  MAX_SNOOZE_MINUTES,
} from '../automation-rules.js';

/**
 * The per-kind rules of `parseConditions` and `parseActions` (automation-rules.ts), as the
 * request schema states them: one `oneOf` branch per kind, built from the same limits. Keep the
 * two side by side when either changes.
 */

type Field = (typeof CONDITION_FIELDS)[number];
type Op = (typeof CONDITION_OPS)[number];
const text = (max: number, more: SchemaRules = {}): SchemaRules => ({ type: 'string', minLength: 1, maxLength: max, ...more });
const condition = (fields: Field[], ops: Op[], value: SchemaRules): SchemaRules => ({
  type: 'object',
  properties: { field: { type: 'string', enum: fields }, op: { type: 'string', enum: ops }, value },
  required: ['field', 'op', 'value'],
});

/** A condition: which `value` each `field` and `op` take (no two branches share a field and op). */
export const CONDITION_ITEM: SchemaRules = {
  oneOf: [
    condition(['content'], ['contains', 'equals', 'starts_with'], text(MAX_CONDITION_VALUE)),
    // Compared as digits: a whole number or its start needs a digit other than a leading zero.
    condition(
      ['chat_phone'],
      ['contains', 'equals', 'starts_with'],
      text(MAX_CONDITION_VALUE, { pattern: '^\\D*[1-9]', description: 'digits of a phone number (`+44`, `49151…`)' }),
    ),
    condition(['message_type'], ['equals'], { type: 'string', enum: [...MESSAGE_TYPES] }),
    condition(['message_type'], ['contains', 'starts_with'], text(MAX_CONDITION_VALUE)),
    condition(['kind'], ['equals'], { type: 'string', enum: [...MESSAGE_KIND_NAMES], description: 'what the message is precisely (`voice`, `location`, …)' }),
    condition(['kind'], ['contains', 'starts_with'], text(MAX_CONDITION_VALUE)),
    condition(
      ['content', 'chat_phone', 'message_type', 'kind'],
      ['matches'],
      text(MAX_PATTERN, { description: 'a regular expression (JavaScript syntax), matched case-insensitively' }),
    ),
    condition(['is_group'], ['equals'], { type: 'boolean' }),
  ],
};

type ActionType = (typeof ACTION_TYPES)[number];
const action = (type: ActionType, properties: Record<string, SchemaRules> = {}, required: string[] = []): SchemaRules => ({
  type: 'object',
  properties: { type: { type: 'string', enum: [type] }, ...properties },
  required: ['type', ...required],
});

// Every action type needs its entry: a type added to ACTION_TYPES without one does not compile.
const ACTIONS: Record<ActionType, SchemaRules> = {
  reply: action('reply', { body: text(MAX_REPLY, { pattern: NON_BLANK, description: 'the text to send' }) }, ['body']),
  reply_template: action(
    'reply_template',
    {
      template_id: { type: 'string', format: 'uuid', description: 'a template of the workspace' },
      parameters: { type: 'array', maxItems: MAX_TEMPLATE_PARAMETERS, items: { type: 'string', maxLength: MAX_TEMPLATE_PARAMETER_LENGTH } },
    },
    ['template_id'],
  ),
  assign: action('assign', { user_id: { type: 'string', format: 'uuid', nullable: true, description: 'a member, or null to unassign' } }, ['user_id']),
  answer_from_knowledge: action('answer_from_knowledge', {
    min_rank: { type: 'number', minimum: 0, maximum: 1, description: 'rank needed (default `KNOWLEDGE_ANSWER_MIN_RANK`)' },
  }),
  mark_read: action('mark_read'),
  add_label: action('add_label', { label_id: { type: 'string', format: 'uuid', description: 'a label of the workspace (`GET /api/labels`)' } }, ['label_id']),
  // `snooze_minutes` goes with `snoozed` only, and is required there: two variants.
  set_status: {
    oneOf: [
      { ...action('set_status', { status: { type: 'string', enum: ['open', 'pending', 'closed'] } }, ['status']), not: { required: ['snooze_minutes'] } },
      action(
        'set_status',
        {
          status: { type: 'string', enum: ['snoozed'] },
          snooze_minutes: { type: 'integer', minimum: 1, maximum: MAX_SNOOZE_MINUTES, description: 'how long, in minutes (up to 365 days)' },
        },
        ['status', 'snooze_minutes'],
      ),
    ],
  },
};

/** An action: the fields each `type` takes. */
export const ACTION_ITEM: SchemaRules = { oneOf: ACTION_TYPES.map((type) => ACTIONS[type]) };
