import { randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'pk_live_';
export const API_KEY_PATTERN = /^pk_live_[0-9a-f]{48}$/;
export const API_KEY_LIFETIME_MS = 365 * 24 * 3600 * 1000;
/** Characters of the key shown in listings (`pk_live_1a2b3c4d`), enough to tell keys apart. */
export const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

/** `pk_live_` + 48 lowercase hex characters (24 bytes from the CSPRNG), 56 in all. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(24).toString('hex');
}
