import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WEBHOOK_EVENTS as CONSOLE_WEBHOOK_EVENTS } from '../../console/src/api/webhook-events.js';
import {
  DEFAULT_WEBHOOK_EVENTS,
  WEBHOOK_EVENT_CATALOGUE,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
} from '../../src/modules/webhooks/events/webhook-event.catalogue.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { ownedWorkspace } from './webhook-support.js';

type Schema = { properties?: Record<string, Schema>; items?: Schema; enum?: string[]; description?: string };

// The event types are declared once, in the catalogue: the API's validation and document, and the
// Console's copy (its build does not reach the service's code), must list the same ones.
describe('webhook event catalogue', () => {
  let t: TestApp;
  let schemas: Record<string, Schema>;

  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    schemas = ((await t.http().get('/api/openapi.json')).body as { components: { schemas: Record<string, Schema> } }).components.schemas;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The `events` property of a schema. */
  const eventsOf = (schema: string): Schema => {
    const property = schemas[schema]?.properties?.events;
    if (!property) throw new Error(`${schema} has no events property`);
    return property;
  };

  it('lists the contract’s two events first, then the opt-in ones, each with a label, a description and a source', () => {
    expect(WEBHOOK_EVENTS.slice(0, 2)).toEqual(['scan.chat', 'meta.chat']);
    expect(WEBHOOK_EVENTS).toContain('session.status');
    expect(WEBHOOK_EVENTS.slice(2).filter((name) => WEBHOOK_EVENT_CATALOGUE[name].byDefault)).toEqual([]);
    for (const name of WEBHOOK_EVENTS) {
      const declared = WEBHOOK_EVENT_CATALOGUE[name];
      expect([name, declared.label.length > 0, declared.description.length > 0, typeof declared.source.payload]).toEqual([name, true, true, 'function']);
    }
  });

  it('the Console offers exactly the catalogue’s events, with its labels and defaults', () => {
    expect(CONSOLE_WEBHOOK_EVENTS).toEqual(
      WEBHOOK_EVENTS.map((name) => ({ name, label: WEBHOOK_EVENT_CATALOGUE[name].label, byDefault: WEBHOOK_EVENT_CATALOGUE[name].byDefault })),
    );
  });

  it('the API document enumerates the catalogue’s events and describes each', () => {
    for (const schema of ['CreateWebhookDto', 'UpdateWebhookDto', 'WebhookResponse']) {
      expect([schema, eventsOf(schema).items?.enum]).toEqual([schema, [...WEBHOOK_EVENTS]]);
    }
    const description = eventsOf('CreateWebhookDto').description ?? '';
    expect(description).toMatch(/^The events it receives; default `scan\.chat`, `meta\.chat`\. /);
    for (const name of WEBHOOK_EVENTS) expect(description).toContain(`\`${name}\`: ${WEBHOOK_EVENT_CATALOGUE[name].description}`);
    expect(schemas.DeliveryAttemptResponse?.properties?.event?.description).toBe(
      `${WEBHOOK_EVENTS.map((name) => `\`${name}\``).join(', ')}, or \`webhook.test\``,
    );
    expect(WEBHOOK_TEST_EVENT).toBe('webhook.test');
  });

  it('the API takes each catalogue event, refuses others by the catalogue’s list, and defaults to the default ones', async () => {
    const owned = await ownedWorkspace(t);
    for (const name of WEBHOOK_EVENTS) {
      const res = await owned.as('post', '/api/webhooks').send({ url: 'http://127.0.0.1:9/one', events: [name] });
      expect([name, res.status, res.body.events]).toEqual([name, 201, [name]]);
    }
    const unknown = await owned.as('post', '/api/webhooks').send({ url: 'http://127.0.0.1:9/x', events: [WEBHOOK_TEST_EVENT] });
    expect([unknown.status, unknown.body]).toEqual([400, { error: `events must be a non-empty list of ${WEBHOOK_EVENTS.join(', ')}` }]);
    const defaulted = await owned.as('post', '/api/webhooks').send({ url: 'http://127.0.0.1:9/all' });
    expect([defaulted.status, defaulted.body.events]).toEqual([201, [...DEFAULT_WEBHOOK_EVENTS]]);
    expect(DEFAULT_WEBHOOK_EVENTS).toEqual(['scan.chat', 'meta.chat']);
  });
});
