/**
 * Reading a provider callback defensively: it is signed, so it comes from the provider, but
 * fields come and go between API versions, so every field is checked for its type and anything
 * unexpected is skipped, never trusted (unknown fields are ignored).
 */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
/** The provider sends some ids as numbers (`message_template_id`). */
export const idText = (value: unknown): string | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : text(value));

// Ids the provider sends as JSON numbers; past 2^53 JSON.parse would round them. Quoting the
// key's value is safe: inside a JSON string the quotes around a key-like text are escaped.
const NUMERIC_IDS = /("message_template_id"\s*:\s*)(\d+)(?=\s*[,}\]])/g;

/** The stored callback's bytes as JSON, numeric ids kept exact as text; undefined when they do not parse. */
export function parsePayload(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8').replace(NUMERIC_IDS, '$1"$2"'));
  } catch {
    return undefined;
  }
}

/** The fields whose payloads are forwarded as `meta.chat` (docs/contract.md#events). */
export const FORWARDED_FIELDS: ReadonlySet<string> = new Set(['messages', 'message_template_status_update', 'message_template_quality_update']);
export const TEMPLATE_FIELDS: ReadonlySet<string> = new Set(['message_template_status_update', 'message_template_quality_update']);

/** One `entry[].changes[]` element with the WABA it came under, and where it sits in the callback. */
export interface CallbackChange {
  wabaId: string | undefined;
  field: string;
  value: Json;
  /** Its entry's index in `entry[]`, and its own in that entry's `changes[]` (elements of other types counted). */
  entryIndex: number;
  changeIndex: number;
}

const elements = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Every change of every entry, in order (a callback may carry up to 1,000 updates). */
export function changesOf(payload: unknown): CallbackChange[] {
  if (!isObject(payload)) return [];
  return elements(payload.entry).flatMap((entry, entryIndex) =>
    isObject(entry)
      ? elements(entry.changes).flatMap((change, changeIndex) => {
          const field = isObject(change) ? text(change.field) : undefined;
          return field && isObject(change) && isObject(change.value) ? [{ wabaId: idText(entry.id), field, value: change.value, entryIndex, changeIndex }] : [];
        })
      : [],
  );
}

/** The number a change is about (`value.metadata.phone_number_id`: `messages`, and other number-level fields). */
export const phoneNumberIdOf = (change: CallbackChange): string | undefined =>
  isObject(change.value.metadata) ? idText(change.value.metadata.phone_number_id) : undefined;

/**
 * The digits of the business number a change names by its display form only:
 * `phone_number_quality_update`, `phone_number_name_update` and `security` carry
 * `value.display_phone_number`, other number-level fields `value.metadata.display_phone_number`,
 * an `account_update` about a number (`VERIFIED_ACCOUNT`, …) `value.phone_number`.
 */
export function displayDigitsOf(change: CallbackChange): string | undefined {
  const { value } = change;
  const named =
    idText(value.display_phone_number) ??
    (isObject(value.metadata) ? idText(value.metadata.display_phone_number) : undefined) ??
    (change.field === 'account_update' ? idText(value.phone_number) : undefined);
  const digits = named?.replace(/\D/g, '');
  return digits || undefined;
}
