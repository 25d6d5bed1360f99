/**
 * The canonical form of what `normalizePhone` accepts, for the OpenAPI document: E.164 digits
 * with or without `+`. Every string it matches is accepted; the other forms below are too.
 */
export const PHONE_PATTERN = '^\\+?[1-9][0-9]{5,14}$';

/**
 * Phone numbers are stored as digits only (E.164 without `+`): 6 to 15 digits, country code first.
 * Accepts what people type in international form: "+49 (151) 234-567", the "00" international
 * call prefix ("0049151…"), and the national trunk zero written after the country code
 * ("+49 (0) 151 …", dropped). A number still starting with 0 is in national form (no country
 * code: no country code starts with 0) and is refused, since it would name another chat than
 * the person's.
 */
export function normalizePhone(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  // Never letters.
  if (!/^[\d\s+().-]+$/.test(value)) return null;
  const digits = phoneDigits(value);
  if (digits.startsWith('0')) return null;
  return digits.length >= 6 && digits.length <= 15 ? digits : null;
}

/**
 * The digits of a phone number, or of its start, as contacts store them: `+49 (0) 151…` and
 * `0049 151…` are `49151…` (international form: the country code comes first, so a "(0)" after it
 * is the trunk zero, and `00` is the call prefix). No length or validity check: an automation's
 * `starts_with: "+44"` is a start.
 */
export function phoneDigits(raw: string): string {
  const value = raw.trim();
  const digits = value.replace(/\D/g, '');
  const callPrefix = !value.startsWith('+') && digits.startsWith('00');
  if (!value.startsWith('+') && !callPrefix) return digits;
  const international = value.replace(/\(0\)/g, '').replace(/\D/g, '');
  return callPrefix ? international.slice(2) : international;
}

/**
 * The LID user part: `123456789012345@lid`, `123456789012345:7@lid` and `123456789012345` all give
 * `123456789012345`. Device suffixes differ per linked device, the person does not.
 */
export function normalizeLid(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const user = raw.trim().split('@')[0]!.split(':')[0]!;
  return user === '' ? null : user;
}

/**
 * The Cloud API's business-scoped user id: an ISO country code, a dot and letters/digits
 * (`US.13491208655302741918`, parents `US.ENT.…`). Anything else is not one.
 */
export function normalizeBsuid(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  return /^[A-Z]{2}(\.[A-Za-z0-9]{1,64}){1,2}$/.test(value) ? value : null;
}

/**
 * The chat id of a one-to-one chat with a phone number. Both channels use this form, so a
 * conversation started over the API and one that arrives later from the phone are the same row.
 */
export const personJid = (phone: string): string => `${phone}@s.whatsapp.net`;
