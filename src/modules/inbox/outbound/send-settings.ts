import type { SendDefaults } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { BODY_NOT_AN_OBJECT } from '../../../infra/http/validation.pipe.js';

/** Which queued sends show "typing…" first. */
export const TYPING_MODES = ['automations', 'all', 'off'] as const;
export type TypingMode = (typeof TYPING_MODES)[number];

/** How one number sends (docs/sending.md): the pace of its queue and its caps. */
export type SendSettings = SendDefaults;

/** The API's names of the settings, in the order the API lists them. */
export const SETTING_FIELDS = {
  min_gap_ms: 'minGapMs',
  jitter_ms: 'jitterMs',
  per_minute: 'perMinute',
  burst: 'burst',
  typing: 'typing',
  first_contacts_per_day: 'firstContactsPerDay',
  unanswered_per_chat: 'unansweredPerChat',
} as const satisfies Record<string, keyof SendSettings>;

export type SettingField = keyof typeof SETTING_FIELDS;

type NumericKey = Exclude<keyof SendSettings, 'typing'>;

/**
 * What a workspace may set for itself. Narrower than the SEND_* defaults an operator may give:
 * a workspace can slow its number down freely but never make it send like a machine (a gap under
 * 200 ms, more than 5 messages a second).
 */
export const SETTING_BOUNDS: Record<NumericKey, { min: number; max: number }> = {
  minGapMs: { min: 200, max: 600_000 },
  jitterMs: { min: 0, max: 600_000 },
  perMinute: { min: 1, max: 300 },
  burst: { min: 1, max: 50 },
  firstContactsPerDay: { min: 1, max: 1000 },
  unansweredPerChat: { min: 1, max: 100 },
};

export const TYPING_RULE = `typing must be one of ${TYPING_MODES.join(', ')}`;
export const boundsRule = (field: SettingField): string => {
  const bounds = SETTING_BOUNDS[SETTING_FIELDS[field] as NumericKey];
  return `${field} must be an integer from ${bounds.min} to ${bounds.max}`;
};

/** The changes a PATCH body asks for, checked field by field (400 with the first broken rule); `{}` changes nothing. */
export function parseSettingsPatch(body: unknown): Partial<SendSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ApiError.badRequest(BODY_NOT_AN_OBJECT);
  const entries = Object.entries(body as Record<string, unknown>);
  const patch: Partial<SendSettings> = {};
  for (const [field, value] of entries) {
    if (!Object.hasOwn(SETTING_FIELDS, field)) throw ApiError.badRequest(`unknown field ${field}`);
    const key = SETTING_FIELDS[field as SettingField];
    if (key === 'typing') {
      if (typeof value !== 'string' || !(TYPING_MODES as readonly string[]).includes(value)) throw ApiError.badRequest(TYPING_RULE);
      patch.typing = value as TypingMode;
      continue;
    }
    const bounds = SETTING_BOUNDS[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
      throw ApiError.badRequest(boundsRule(field as SettingField));
    }
    patch[key] = value;
  }
  return patch;
}

/** Settings in the API's names. */
export function settingsBody(settings: SendSettings): Record<SettingField, number | string> {
  return Object.fromEntries(Object.entries(SETTING_FIELDS).map(([field, key]) => [field, settings[key]])) as Record<SettingField, number | string>;
}
