import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxChangeHooks } from '../../src/modules/inbox/changes/inbox-change-hooks.js';
import { InboxEventProducer } from '../../src/modules/webhooks/events/inbox-event.producer.js';
import { fromInboxChange, type WebhookEventCatalogue } from '../../src/modules/webhooks/events/webhook-event.catalogue.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { addWebhook, createWebhookTestApp, json, ownedWorkspace, Receiver } from './webhook-support.js';

// An event declared in the catalogue from an inbox change needs nothing else: the catalogue's
// producer writes it in the change's transaction and delivers it after the commit. No such event
// exists yet, so this declares one under an existing name (webhooks can subscribe to it).
const STATUS_EVENT: WebhookEventCatalogue = {
  'meta.chat': {
    label: 'status changes (test)',
    description: 'a conversation opened or closed',
    channel: null,
    byDefault: false,
    source: fromInboxChange('conversation.status', (workspaceId, { conversation, previousStatus }) =>
      conversation.status === previousStatus ? null : { workspace_id: workspaceId, conversation_id: conversation.id, status: conversation.status },
    ),
  },
};

describe('webhook events of inbox changes', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  let inbox: InboxFactories;
  const stop: (() => void)[] = [];

  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
    inbox = new InboxFactories(s.t.app);
  });
  afterEach(() => {
    for (const remove of stop.splice(0)) remove();
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  const eventsOf = async (workspaceId: string): Promise<number> =>
    ((await s.t.dataSource.query('SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1', [workspaceId])) as { n: number }[])[0]!.n;

  it('a declared event goes out for each change that makes one, and for none that does not', async () => {
    stop.push(s.t.app.get(InboxEventProducer).produce(STATUS_EVENT));
    const owned = await ownedWorkspace(s.t);
    const path = `/status-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['meta.chat'] });
    const conversation = await inbox.conversation(owned.workspaceId);
    const patch = (status: string) => owned.as('patch', `/api/conversations/${conversation.id}`).send({ status });

    for (const status of ['closed', 'closed', 'open']) expect((await patch(status)).status).toBe(200);
    const requests = await receiver.waitFor(2, path);
    // Delivery order is not guaranteed (docs/webhooks.md#delivery): compared by status.
    const seen = requests.map((request) => [request.headers['x-svc-event'], json(request)] as const);
    expect(seen.sort(([, a], [, b]) => String(a.status).localeCompare(String(b.status)))).toEqual([
      ['meta.chat', { workspace_id: owned.workspaceId, conversation_id: conversation.id, status: 'closed' }],
      ['meta.chat', { workspace_id: owned.workspaceId, conversation_id: conversation.id, status: 'open' }],
    ]);
    // Closing what was closed made no event.
    expect(await eventsOf(owned.workspaceId)).toBe(2);
  });

  it('commits the event with its change or not at all', async () => {
    stop.push(s.t.app.get(InboxEventProducer).produce(STATUS_EVENT));
    stop.push(
      s.t.app.get(InboxChangeHooks).register({
        changes: ['conversation.status'],
        inTransaction: async () => {
          throw new Error('a later hook failed');
        },
      }),
    );
    const owned = await ownedWorkspace(s.t);
    await addWebhook(owned, receiver.url(`/rolled-back-${owned.workspaceId}`), { events: ['meta.chat'] });
    const conversation = await inbox.conversation(owned.workspaceId);

    expect((await owned.as('patch', `/api/conversations/${conversation.id}`).send({ status: 'closed' })).status).toBe(500);
    expect((await owned.as('get', `/api/conversations/${conversation.id}`)).body.status).toBe('open');
    expect(await eventsOf(owned.workspaceId)).toBe(0);
  });

  it('the service’s own catalogue declares no inbox-change event yet: a status change writes none', async () => {
    const owned = await ownedWorkspace(s.t);
    await addWebhook(owned, receiver.url(`/none-${owned.workspaceId}`));
    const conversation = await inbox.conversation(owned.workspaceId);
    expect((await owned.as('patch', `/api/conversations/${conversation.id}`).send({ status: 'closed' })).status).toBe(200);
    // The conversation's first message made its scan.chat; the status change nothing.
    const rows: { event: string }[] = await s.t.dataSource.query('SELECT event FROM webhook_events WHERE workspace_id = $1', [owned.workspaceId]);
    expect(rows.map((row) => row.event)).toEqual(['scan.chat']);
  });
});
