import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { INVALID_STREAM_EVENTS, STREAM_CATALOGUE_EVENTS } from '../../src/modules/events/live-stream.service.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

type Owned = Awaited<ReturnType<TestApp['factories']['workspaceWithOwner']>>;

const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });

/** The webhook catalogue on the live stream: `GET /api/events?events=…` (docs/events.md). */
describe('GET /api/events?events= (catalogue events)', () => {
  let t: TestApp;
  let base: string;
  let events: LiveEventsService;
  let a: Owned;
  const open: SseClient[] = [];

  const connect = async (headers: Record<string, string>, query = ''): Promise<SseClient> => {
    const client = await openSse(`${base}/api/events${query}`, headers);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp();
    base = await listenUrl(t.app);
    events = t.app.get(LiveEventsService);
    a = await t.factories.workspaceWithOwner();
    await events.markWatched([a.workspace.id]);
  });
  afterEach(() => {
    open.splice(0).forEach((client) => client.close());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offers every catalogue type but the two webhook-only ones of the contract', () => {
    expect(STREAM_CATALOGUE_EVENTS).toEqual(
      expect.arrayContaining([
        'message.status',
        'message.sent',
        'message.updated',
        'message.deleted',
        'message.reaction',
        'conversation.updated',
        'session.status',
      ]),
    );
    expect(STREAM_CATALOGUE_EVENTS).not.toContain('scan.chat');
    expect(STREAM_CATALOGUE_EVENTS).not.toContain('meta.chat');
  });

  it.each(['', 'scan.chat', 'message.status,bogus', 'message.created', 'message.status,'])('refuses events=%p with 400', async (value) => {
    const client = await connect(bearer(a.key), `?events=${encodeURIComponent(value)}`);
    await client.waitForEnd();
    expect(client.status).toBe(400);
    expect(JSON.parse(client.body)).toEqual({ error: INVALID_STREAM_EVENTS });
  });

  it('carries exactly the listed types with the webhook body, and a plain stream none of them', async () => {
    const catalogue = await connect(bearer(a.key), '?events=message.status,session.status');
    const plain = await connect(bearer(a.key));
    const status = JSON.stringify({ event: 'message.status', status: 'delivered', mark: 1 });
    await events.publishCatalogue(a.workspace.id, 'message.status', status);
    await events.publishCatalogue(a.workspace.id, 'message.sent', JSON.stringify({ event: 'message.sent', mark: 2 }));
    await events.publish(a.workspace.id, 'message.created', { mark: 3 });
    await events.publishCatalogue(a.workspace.id, 'session.status', JSON.stringify({ event: 'session.status', mark: 4 }));

    await catalogue.waitFor('session.status', (c) => c.events.some((e) => e.event === 'session.status'));
    await plain.waitFor('message.created', (c) => c.events.length >= 1);
    expect(catalogue.events.map((e) => e.event)).toEqual(['message.status', 'session.status']);
    // The very bytes a webhook receives.
    expect(catalogue.events[0]!.data).toBe(status);
    expect(plain.events.map((e) => [e.event, dataOf(e).mark])).toEqual([['message.created', 3]]);
  });

  it('replays catalogue events on resume like any other', async () => {
    const first = await connect(bearer(a.key), '?events=conversation.updated');
    await events.publishCatalogue(a.workspace.id, 'conversation.updated', JSON.stringify({ mark: 'c1' }));
    await first.waitFor('c1', (c) => c.events.length === 1);
    first.close();
    await events.publishCatalogue(a.workspace.id, 'conversation.updated', JSON.stringify({ mark: 'c2' }));
    const again = await connect({ ...bearer(a.key), 'Last-Event-ID': first.events[0]!.id! }, '?events=conversation.updated');
    await again.waitFor('c2', (c) => c.events.length === 1);
    expect(dataOf(again.events[0]!).mark).toBe('c2');
  });
});
