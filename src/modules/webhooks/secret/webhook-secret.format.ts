import { randomBytes } from 'node:crypto';

/** Purpose of the key that seals webhook secrets at rest (EncryptionService). */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** The Standard Webhooks key: the bytes the base64 part decodes to. */
export const standardKeyOf = (secret: string): Buffer => Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
