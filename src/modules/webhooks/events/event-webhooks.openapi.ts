import { WEBHOOK_EVENT_CATALOGUE, WEBHOOK_TEST_EVENT, type WebhookEventName } from './webhook-event.catalogue.js';
import { WEBHOOK_EVENT_SCHEMAS } from './event-payload.schemas.js';

/** The delivery headers (docs/webhooks.md, "Delivery"), the same on every event but `X-Svc-Event`. */
const deliveryHeaders = (event: string): Record<string, unknown>[] => [
  { name: 'X-Svc-Event', in: 'header', required: true, schema: { type: 'string', const: event }, description: 'The event type' },
  {
    name: 'X-Hub-Signature-256',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
    description: '`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included)',
  },
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'The delivery id: the same on every retry and replay; deduplicate on it',
  },
  { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string', pattern: '^[0-9]+$' }, description: 'Unix seconds of this attempt' },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks)',
  },
  { name: 'User-Agent', in: 'header', required: true, schema: { type: 'string', const: 'whatsapp-inbox-webhooks/1' }, description: 'The sender' },
];

const TEST_DESCRIPTION = 'a signed test event, sent to one endpoint by `POST /api/webhooks/{id}/test` and never retried';

/**
 * The OpenAPI 3.1 `webhooks` section: one POST per event the service sends, with its headers,
 * body schema and example, and the answer it expects. Built from the catalogue and the schemas
 * beside it, so a new catalogue entry shows up here (and fails a test until it has a schema).
 */
export function webhookOperations(): Record<string, { post: Record<string, unknown> }> {
  const names = [...(Object.keys(WEBHOOK_EVENT_CATALOGUE) as WebhookEventName[]), WEBHOOK_TEST_EVENT] as const;
  const entries = names.map((name) => {
    const described = name === WEBHOOK_TEST_EVENT ? TEST_DESCRIPTION : WEBHOOK_EVENT_CATALOGUE[name as WebhookEventName].description;
    const schema = WEBHOOK_EVENT_SCHEMAS[name];
    const post = {
      operationId: `webhook_${name.replace(/\W/g, '_')}`,
      summary: `\`${name}\`: ${described}`,
      description: `${schema.description} Verify both signatures against the raw body before parsing it (docs/webhooks.md).`,
      tags: ['webhook events'],
      parameters: deliveryHeaders(name),
      requestBody: { required: true, content: { 'application/json': { schema, example: schema.example } } },
      responses: {
        '2XX': { description: 'Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff' },
      },
    };
    return [name, { post }] as const;
  });
  return Object.fromEntries(entries);
}
