import { randomBytes } from 'node:crypto';
import type { ApiKeyScope } from '../entities/api-key.entity.js';

export const API_KEY_PREFIX = 'pk_live_';
export const API_KEY_PATTERN = /^pk_live_[0-9a-f]{48}$/;
export const API_KEY_LIFETIME_MS = 365 * 24 * 3600 * 1000;
/** Characters of the key shown in listings (`pk_live_1a2b3c4d`), enough to tell keys apart. */
export const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

/** The scopes a key is stored with. */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['read', 'write'];

// Accepted at creation only (docs/contract.md#api-keys); never stored.
const SCOPE_ALIASES: Readonly<Record<string, ApiKeyScope>> = { read: 'read', write: 'write', full: 'write', full_access: 'write' };

/** The stored scope for a requested one (`full`/`full_access` → `write`), or undefined if unknown. */
export function toApiKeyScope(requested: unknown): ApiKeyScope | undefined {
  return typeof requested === 'string' && Object.hasOwn(SCOPE_ALIASES, requested) ? SCOPE_ALIASES[requested] : undefined;
}

/** `pk_live_` + 48 lowercase hex characters (24 bytes from the CSPRNG), 56 in all. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(24).toString('hex');
}
