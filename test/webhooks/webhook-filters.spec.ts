import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { metaChatEvent } from '../../src/modules/webhooks/events/meta-chat.event.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import { createE2eApp, link, newWorkspace, type E2eWorkspace } from '../e2e/e2e-support.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { addWebhook, eventually, json, type Owned, Receiver, type Received, secretOf, WEBHOOK_ENV } from './webhook-support.js';

jest.setTimeout(60_000);

const PHONE = '15550100382';
const GROUP = '120363000000003801@g.us';

/**
 * The webhook filters beyond the type (`channels`, `include_groups`), through the real driver and
 * the simulator: one linked number, a message in a one-to-one chat and one in a group, and a
 * Cloud callback forwarded through the outbox as the meta module does.
 */
describe('webhook filters: channels and include_groups', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let receiver: Receiver;
  let ws: E2eWorkspace;
  let owned: Owned;
  let secret: string;

  beforeAll(async () => {
    [sim, receiver] = await Promise.all([WhatsAppSimulator.start(), Receiver.start()]);
    t = await createE2eApp(sim, { env: WEBHOOK_ENV });
    ws = await newWorkspace(t);
    owned = {
      workspaceId: ws.workspaceId,
      cookie: ws.owner.cookie,
      as: (method, path) => t.http()[method](path).set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId),
    };
    secret = await secretOf(owned);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await sim?.stop();
  });

  const create = (body: Record<string, unknown>) => owned.as('post', '/api/webhooks').send({ url: receiver.url('/x'), ...body });

  it('answers the filters; absent, they are every channel and groups included', async () => {
    const plain = await create({});
    expect([plain.status, plain.body.channels, plain.body.include_groups]).toEqual([201, null, true]);
    const filtered = await create({ channels: ['meta', 'scan'], include_groups: false });
    expect([filtered.status, filtered.body.channels, filtered.body.include_groups]).toEqual([201, ['scan', 'meta'], false]);
    const patched = await owned.as('patch', `/api/webhooks/${filtered.body.id}`).send({ channels: ['meta', 'meta'] });
    expect([patched.status, patched.body.channels, patched.body.include_groups]).toEqual([200, ['meta'], false]);
    // `channels: null` is every channel again; include_groups cannot be emptied.
    const cleared = await owned.as('patch', `/api/webhooks/${filtered.body.id}`).send({ channels: null, include_groups: true });
    expect([cleared.status, cleared.body.channels, cleared.body.include_groups]).toEqual([200, null, true]);
    const listed = (await owned.as('get', '/api/webhooks')).body as { id: string; channels: unknown; include_groups: unknown }[];
    expect(listed.find((hook) => hook.id === filtered.body.id)).toMatchObject({ channels: null, include_groups: true });
    for (const id of [plain.body.id, filtered.body.id]) expect((await owned.as('delete', `/api/webhooks/${id}`)).status).toBe(200);
  });

  it('refuses filters that are not lists of channels or not booleans, with the field’s message', async () => {
    const CHANNELS = { error: 'channels must be a list of scan, meta' };
    const GROUPS = { error: 'include_groups must be true or false' };
    for (const channels of [['sms'], [], 'scan', [1], ['scan', 'meta', 'scan']]) {
      const res = await create({ channels });
      expect([channels, res.status, res.body]).toEqual([channels, 400, CHANNELS]);
    }
    for (const include_groups of ['yes', null, 1]) {
      const res = await create({ include_groups });
      expect([include_groups, res.status, res.body]).toEqual([include_groups, 400, GROUPS]);
    }
    const id = ((await create({})).body as { id: string }).id;
    expect([(await owned.as('patch', `/api/webhooks/${id}`).send({ include_groups: null })).body]).toEqual([GROUPS]);
    expect((await owned.as('delete', `/api/webhooks/${id}`)).status).toBe(200);
  });

  it('delivers each event only where the filters accept it', async () => {
    const events = ['scan.chat', 'meta.chat'];
    await addWebhook(owned, receiver.url('/all'), { events });
    await addWebhook(owned, receiver.url('/meta-only'), { events, channels: ['meta'] });
    await addWebhook(owned, receiver.url('/scan-only'), { events, channels: ['scan'] });
    await addWebhook(owned, receiver.url('/no-groups'), { events, include_groups: false });

    const from = '4915100380001';
    sim.group({ jid: GROUP, to: PHONE, subject: 'Filters', members: [from] });
    const direct = await sim.deliverText({ to: PHONE, from, name: 'Ida', text: 'one to one' });
    const grouped = await sim.deliverText({ to: PHONE, from, name: 'Ida', group: GROUP, text: 'in the group' });
    const outbox = t.app.get(WebhookOutbox);
    const callback = Buffer.from(JSON.stringify({ object: 'whatsapp_business_account', entry: [] }));
    const due = await inTransaction(t.dataSource, (tx) => outbox.write(ws.workspaceId, tx, metaChatEvent(callback, `filters-${ws.workspaceId}`)));
    await outbox.enqueue(ws.workspaceId, due);

    // What each endpoint gets: the default one everything, the others what their filters let through.
    const seen = (path: string): string[] =>
      receiver
        .at(path)
        .map((request: Received) => {
          new Webhook(secret).verify(request.body.toString('utf8'), request.headers as Record<string, string>);
          const body = json(request);
          return request.headers['x-svc-event'] === 'meta.chat'
            ? 'meta.chat'
            : body.chat_message_id === direct
              ? 'direct'
              : body.chat_message_id === grouped
                ? 'group'
                : '?';
        })
        .sort();
    await eventually('the default endpoint got all three', async () => (receiver.at('/all').length >= 3 ? true : null), 20_000);
    // Every delivery of one event is written in one statement: the others have theirs by now; a moment for their drains.
    await eventually('the filtered endpoints got theirs', async () =>
      receiver.at('/scan-only').length >= 2 && receiver.at('/no-groups').length >= 2 ? true : null,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect({ all: seen('/all'), metaOnly: seen('/meta-only'), scanOnly: seen('/scan-only'), noGroups: seen('/no-groups') }).toEqual({
      all: ['direct', 'group', 'meta.chat'],
      metaOnly: ['meta.chat'],
      scanOnly: ['direct', 'group'],
      noGroups: ['direct', 'meta.chat'],
    });
    const group = json(receiver.at('/all').find((request) => json(request).chat_message_id === grouped)!);
    expect(group).toMatchObject({ is_group: true, chat_jid: GROUP });
  });
});
