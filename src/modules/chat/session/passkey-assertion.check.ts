import type { ScanPasskeyAssertion, ScanPasskeyOptions } from '../driver/scan-driver.port.js';

/** The origin a WebAuthn client on WhatsApp's own site reports (every working client's). */
export const WHATSAPP_WEB_ORIGIN = 'https://web.whatsapp.com';

const BASE64URL = /^[A-Za-z0-9_-]+$/;
// Unpadded base64url never leaves one character over (a length of 4n + 1 encodes no bytes).
const isBase64url = (value: string): boolean => BASE64URL.test(value) && value.length % 4 !== 1;

/**
 * What is wrong with an assertion before it goes to WhatsApp, or null: every binary field is
 * unpadded base64url, `id` is `rawId`, and its client data is a `webauthn.get` for WhatsApp's
 * challenge made on WhatsApp's own site. The signature itself only WhatsApp can check (it holds
 * the account's public key).
 */
export function checkAssertion(assertion: ScanPasskeyAssertion, options: ScanPasskeyOptions): string | null {
  const { response } = assertion;
  for (const [name, value] of [
    ['rawId', assertion.rawId],
    ['response.clientDataJSON', response.clientDataJSON],
    ['response.authenticatorData', response.authenticatorData],
    ['response.signature', response.signature],
  ] as const) {
    if (!isBase64url(value)) return `assertion ${name} is not unpadded base64url`;
  }
  if (response.userHandle !== null && response.userHandle !== undefined && response.userHandle !== '' && !isBase64url(response.userHandle)) {
    return 'assertion response.userHandle is not unpadded base64url';
  }
  if (assertion.id !== assertion.rawId) return 'assertion id and rawId differ';
  // Flags byte after the 32-byte rpId hash, then the 4-byte counter.
  if (Buffer.from(response.authenticatorData, 'base64url').length < 37) return 'assertion authenticatorData is too short';
  let client: { type?: unknown; challenge?: unknown; origin?: unknown };
  try {
    client = JSON.parse(Buffer.from(response.clientDataJSON, 'base64url').toString('utf8')) as typeof client;
  } catch {
    return 'assertion clientDataJSON is not JSON';
  }
  if (client === null || typeof client !== 'object') return 'assertion clientDataJSON is not JSON';
  if (client.type !== 'webauthn.get') return 'assertion clientDataJSON type is not webauthn.get';
  if (client.challenge !== options.challenge.replace(/=+$/, '')) return 'assertion challenge does not match';
  if (client.origin !== WHATSAPP_WEB_ORIGIN) return `assertion origin is not ${WHATSAPP_WEB_ORIGIN}`;
  return null;
}
