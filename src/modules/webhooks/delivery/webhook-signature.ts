import { createHmac } from 'node:crypto';
import { standardKeyOf } from '../secret/webhook-secret.format.js';
import type { SigningSecrets } from '../secret/webhook-secret.service.js';

/**
 * The two signatures of one attempt, over exactly the bytes sent:
 * - `X-Hub-Signature-256: sha256=<hex HMAC-SHA256>` keyed with the secret string as shown
 *   (`whsec_…`, its UTF-8 bytes), over the body: verifiable like Meta's signature;
 * - Standard Webhooks: `webhook-id` (the delivery id, the same on every retry),
 *   `webhook-timestamp` (unix seconds of this attempt) and `webhook-signature: v1,<base64
 *   HMAC-SHA256>` keyed with the secret's decoded bytes, over `<id>.<timestamp>.<body>`; during a
 *   day after a rotation a second `v1,…` made with the previous secret follows, space-separated.
 */
export function signatureHeaders(deliveryId: string, timestamp: number, body: Buffer, secrets: SigningSecrets): Record<string, string> {
  const hub = createHmac('sha256', Buffer.from(secrets.current, 'utf8')).update(body).digest('hex');
  const standard = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])].map(
    (secret) => `v1,${createHmac('sha256', standardKeyOf(secret)).update(`${deliveryId}.${timestamp}.`).update(body).digest('base64')}`,
  );
  return {
    'X-Hub-Signature-256': `sha256=${hub}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.join(' '),
  };
}
