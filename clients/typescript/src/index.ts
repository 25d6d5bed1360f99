import { createHmac, timingSafeEqual } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { paths, webhooks } from './schema.js';

export type { components, paths, webhooks } from './schema.js';

/** The typed client of the service's REST API (openapi-fetch over the generated `paths`). */
export type InboxClient = Client<paths>;

export interface InboxClientOptions {
  /** The service's origin, e.g. `https://inbox.example.com` (the paths start with `/api`). */
  baseUrl: string;
  /** A workspace API key, `pk_live_…`. */
  apiKey: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export function createInboxClient({ baseUrl, apiKey, fetch }: InboxClientOptions): InboxClient {
  return createClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, ''), headers: { Authorization: `Bearer ${apiKey}` }, ...(fetch ? { fetch } : {}) });
}

/** Every event name the service sends (`X-Svc-Event`). */
export type WebhookEventName = keyof webhooks;

type BodyOf<K extends WebhookEventName> = webhooks[K] extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

/** The body of one event type, e.g. `WebhookEventOf<'message.status'>`. */
export type WebhookEventOf<K extends WebhookEventName> = BodyOf<K>;

/**
 * Any event, as `verifyWebhook` returns it; narrow it on `event` (`scan.chat`'s says
 * `message.inbound`; `meta.chat` is the provider's callback and has none: use the header).
 */
export type WebhookEvent = { [K in WebhookEventName]: BodyOf<K> }[WebhookEventName];

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Lower-cased header names, one value each (Node's `IncomingHttpHeaders`, a fetch `Headers`). */
function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const entries: [string, string | string[] | undefined][] = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  const record: Record<string, string> = {};
  for (const [name, value] of entries) if (value !== undefined) record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return record;
}

/**
 * Checks both signatures of a delivery against its raw body (before any JSON parsing) and returns
 * the event: the Standard Webhooks one (`webhook-id`, `webhook-timestamp`, `webhook-signature`,
 * keyed with the secret's decoded bytes; a timestamp more than 5 minutes away is refused) with
 * the `standardwebhooks` package, and `X-Hub-Signature-256` (HMAC-SHA256 hex keyed with the whole
 * secret string). Throws `WebhookVerificationError` when either fails.
 */
export function verifyWebhook(rawBody: Uint8Array | string, headers: WebhookHeaders, secret: string): WebhookEvent {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const record = headerRecord(headers);
  try {
    new Webhook(secret).verify(body.toString('utf8'), record);
  } catch (error) {
    throw new WebhookVerificationError(`Standard Webhooks signature invalid: ${(error as Error).message}`);
  }
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(record['x-hub-signature-256'] ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new WebhookVerificationError('X-Hub-Signature-256 invalid');
  return JSON.parse(body.toString('utf8')) as WebhookEvent;
}
