import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { createInboxClient, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../../clients/typescript/src/index.js';
import { generateSchema, SCHEMA_PATH } from '../../clients/typescript/scripts/generate.mjs';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '../../src/modules/webhooks/events/webhook-event.catalogue.js';
import { WEBHOOK_EVENT_SCHEMAS } from '../../src/modules/webhooks/events/event-payload.schemas.js';
import { createE2eApp, link, newWorkspace } from '../e2e/e2e-support.js';
import type { TestApp } from '../support/test-app.js';
import { addWebhook, eventually, Receiver, secretOf, type Owned } from '../webhooks/webhook-support.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';

const PHONE = '15550100071';
const FROM = '4915100200071';

// The generated client (clients/typescript) against the service on a real port: its schema is
// the document's current one, its calls reach the routes, its verification accepts a real delivery.
describe('the TypeScript client', () => {
  let t: TestApp;
  let owned: Owned;
  let baseUrl: string;
  let key: string;
  let receiver: Receiver;

  let sim: WhatsAppSimulator;
  let secret: string;

  // One number linked through the real driver on the simulator, for the whole file.
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim, { env: { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const ws = await newWorkspace(t);
    key = ws.key;
    owned = {
      workspaceId: ws.workspaceId,
      cookie: ws.owner.cookie,
      as: (method, path) => t.http()[method](path).set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId),
    };
    receiver = await Receiver.start();
    await addWebhook(owned, receiver.url('/all'), { events: [...WEBHOOK_EVENTS] });
    secret = await secretOf(owned);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await receiver?.close();
    // The client's fetch keeps its connections alive: end them, or the server's close waits.
    (t?.app.getHttpServer() as import('node:http').Server | undefined)?.closeAllConnections();
    await t?.close();
    await sim?.stop();
  });

  it('has a body schema for every catalogue event and webhook.test', () => {
    expect(Object.keys(WEBHOOK_EVENT_SCHEMAS)).toEqual(expect.arrayContaining([...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT]));
  });

  it('has the schema generated from the current OpenAPI document (npm run client:generate when this fails)', async () => {
    const document = (await t.http().get('/api/openapi.json')).body as object;
    const fresh = await generateSchema(document);
    // `npm run client:generate` runs this test with UPDATE_SNAPSHOTS=1: no server needed.
    if (process.env.UPDATE_SNAPSHOTS === '1') await writeFile(SCHEMA_PATH, fresh);
    expect(await readFile(SCHEMA_PATH, 'utf8')).toBe(fresh);
  });

  // CI runs no `tsc` of its own: the package's build (its tsconfig, to a temporary dist) runs here.
  it('builds with its own tsconfig', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'inbox-client-'));
    try {
      await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'clients/typescript/tsconfig.json', '--outDir', outDir]);
      expect((await readdir(outDir)).sort()).toEqual(['index.d.ts', 'index.js', 'schema.d.ts', 'schema.js']);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });

  it('calls the routes with the API key: contacts, conversations, a send', async () => {
    const client = createInboxClient({ baseUrl, apiKey: key });
    const created = await client.POST('/api/contacts', { body: { phone: '+4915123456789', name: 'Ada' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ phone: expect.stringContaining('4915123456789'), name: 'Ada' });
    const listed = await client.GET('/api/contacts', {});
    expect(listed.data?.map((contact) => contact.id)).toContain(created.data!.id);

    // Someone writes in on the simulated phone; the answer goes out through the client.
    await sim.deliverText({ to: PHONE, from: FROM, name: 'Lou', text: 'hello from the phone' });
    const conversation = await eventually('the inbound conversation', async () => {
      const page = await client.GET('/api/conversations', { params: { query: { status: 'open' } } });
      return page.data?.find((c) => c.chat_phone === FROM);
    });
    const sent = await client.POST('/api/conversations/{id}/messages', {
      params: { path: { id: conversation.id } },
      body: { type: 'text', content: 'answered through the client' },
    });
    expect([sent.response.status, sent.error]).toEqual([201, undefined]);
    // Queued (201 pending); the contact gets it on the number's turn, under the id derived from ours.
    expect(sent.data?.status).toBe('pending');
    const received = await sim.waitForSent((m) => m.id === waMessageId(sent.data!.id));
    expect(received.text).toBe('answered through the client');

    // The service's own events match the schemas the document declares: the inbound scan.chat and
    // this message.sent, each verified, with exactly the schema's fields.
    const deliveries = await eventually('scan.chat and message.sent deliveries', async () => {
      const named = (name: string) => receiver.at('/all').find((r) => r.headers['x-svc-event'] === name);
      const [inbound, outbound] = [named('scan.chat'), named('message.sent')];
      return inbound && outbound ? [inbound, outbound] : undefined;
    });
    for (const delivery of deliveries) {
      const name = delivery.headers['x-svc-event'] as 'scan.chat' | 'message.sent';
      const body = verifyWebhook(delivery.body, delivery.headers, secret) as Record<string, unknown>;
      expect([name, Object.keys(body).sort()]).toEqual([name, [...WEBHOOK_EVENT_SCHEMAS[name].required].sort()]);
    }

    // A wrong key: the typed error body.
    const refused = await createInboxClient({ baseUrl, apiKey: `pk_live_${'0'.repeat(48)}` }).GET('/api/contacts', {});
    expect([refused.response.status, refused.error]).toEqual([401, { error: 'invalid or expired API key' }]);
  });

  it('verifies a real delivery (both signatures) and rejects a tampered body or a wrong secret', async () => {
    const webhookId = await addWebhook(owned, receiver.url('/client'));
    const sent = await owned.as('post', `/api/webhooks/${webhookId}/test`);
    expect(sent.status).toBeLessThan(300);
    const [delivery] = await receiver.waitFor(1, '/client');

    const event: WebhookEvent = verifyWebhook(delivery!.body, delivery!.headers, secret);
    expect(event).toMatchObject({ event: 'webhook.test', workspace_id: owned.workspaceId, webhook_id: webhookId });
    if (event.event === 'webhook.test') expect(event.webhook_id).toBe(webhookId); // narrowed by `event`

    const tampered = Buffer.from(delivery!.body.toString('utf8').replace('webhook.test', 'webhook.tesT'));
    expect(() => verifyWebhook(tampered, delivery!.headers, secret)).toThrow(WebhookVerificationError);
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => verifyWebhook(delivery!.body, delivery!.headers, otherSecret)).toThrow(WebhookVerificationError);
    // A valid Standard Webhooks signature is not enough: the hub one is checked too.
    const noHub = { ...delivery!.headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` };
    expect(() => verifyWebhook(delivery!.body, noHub, secret)).toThrow(/X-Hub-Signature-256/);
  });
});
