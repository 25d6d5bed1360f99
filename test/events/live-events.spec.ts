import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { RedisKeys } from '../../src/infra/redis/redis.module.js';
import { compareEventIds } from '../../src/modules/events/event-id.js';
import { LiveEventFanout } from '../../src/modules/events/live-event-fanout.service.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS, LIVE_EVENTS_OPTIONS } from '../../src/modules/events/live-events.options.js';
import { INVALID_LAST_EVENT_ID } from '../../src/modules/events/live-stream.service.js';
import { dataOf, kept, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

type Owned = Awaited<ReturnType<TestApp['factories']['workspaceWithOwner']>>;

const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });
const marks = (client: SseClient): unknown[] => client.events.map((e) => dataOf(e).mark);

describe('GET /api/events', () => {
  let t: TestApp;
  let base: string;
  let events: LiveEventsService;
  let a: Owned;
  let b: Owned;
  const open: SseClient[] = [];

  const connect = async (headers: Record<string, string>, query = ''): Promise<SseClient> => {
    const client = await openSse(`${base}/api/events${query}`, headers);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp({
      // A short keep-alive so its test does not wait 25 s; nothing else depends on it.
      customize: (builder) => builder.overrideProvider(LIVE_EVENTS_OPTIONS).useValue({ ...DEFAULT_LIVE_EVENTS_OPTIONS, keepAliveMs: 200 }),
    });
    base = await listenUrl(t.app);
    events = t.app.get(LiveEventsService);
    a = await t.factories.workspaceWithOwner();
    b = await t.factories.workspaceWithOwner();
    // Clients watched both a moment ago, so whatever a test appends is kept for replay.
    await events.markWatched([a.workspace.id, b.workspace.id]);
  });
  afterEach(() => {
    open.splice(0).forEach((client) => client.close());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('opens an event stream with the headers proxies and browsers need', async () => {
    const client = await connect(bearer(a.key));
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(client.headers['cache-control']).toContain('no-cache');
    expect(client.headers['x-accel-buffering']).toBe('no');
    await client.waitFor('the retry line', (c) => c.retry !== undefined);
    expect(client.retry).toBe(DEFAULT_LIVE_EVENTS_OPTIONS.retryMs);
  });

  it('gives each connection only its own workspace events, each with an id', async () => {
    const onA = await connect(bearer(a.key));
    const onB = await connect({ Cookie: b.owner.cookie, 'X-Tenant-ID': b.workspace.id });

    // Interleaved, and each workspace's last event published after the other's: a leak would
    // have arrived before the last expected event.
    await events.publish(a.workspace.id, 'message.created', { mark: 'a1' });
    await events.publish(b.workspace.id, 'message.created', { mark: 'b1' });
    await events.publish(a.workspace.id, 'conversation.updated', { mark: 'a2' });
    await events.publish(b.workspace.id, 'sync.progress', { mark: 'b2' });
    await events.publish(a.workspace.id, 'message.updated', { mark: 'a3' });
    await events.publish(b.workspace.id, 'session.updated', { mark: 'b3' });

    await onA.waitFor('a3', (c) => marks(c).includes('a3'));
    await onB.waitFor('b3', (c) => marks(c).includes('b3'));
    expect(onA.events.map((e) => [e.event, dataOf(e).mark])).toEqual([
      ['message.created', 'a1'],
      ['conversation.updated', 'a2'],
      ['message.updated', 'a3'],
    ]);
    expect(onB.events.map((e) => [e.event, dataOf(e).mark])).toEqual([
      ['message.created', 'b1'],
      ['sync.progress', 'b2'],
      ['session.updated', 'b3'],
    ]);
    for (const client of [onA, onB]) {
      const ids = client.events.map((e) => e.id);
      expect(ids.every((id) => typeof id === 'string' && /^\d+-\d+$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('replays exactly the missed events, in order, on reconnect with Last-Event-ID, then goes live', async () => {
    const first = await connect(bearer(a.key));
    const seen = [
      await kept(events.append(a.workspace.id, 'message.created', { mark: 'r1' })),
      await kept(events.append(a.workspace.id, 'message.created', { mark: 'r2' })),
    ];
    await first.waitFor('r2', (c) => marks(c).includes('r2'));
    expect(first.events.map((e) => e.id)).toEqual(seen);
    first.close();

    const missed = [
      await kept(events.append(a.workspace.id, 'message.updated', { mark: 'r3' })),
      await kept(events.append(b.workspace.id, 'message.created', { mark: 'other workspace' })),
      await kept(events.append(a.workspace.id, 'conversation.updated', { mark: 'r4' })),
    ];
    const again = await connect({ ...bearer(a.key), 'Last-Event-ID': seen[1]! });
    await again.waitFor('the replay', (c) => c.events.length >= 2);
    const live = await kept(events.append(a.workspace.id, 'message.created', { mark: 'r5' }));
    await again.waitFor('r5', (c) => marks(c).includes('r5'));

    expect(again.events.map((e) => e.id)).toEqual([missed[0], missed[2], live]);
    expect(marks(again)).toEqual(['r3', 'r4', 'r5']);
    expect(again.events.map((e) => e.event)).toEqual(['message.updated', 'conversation.updated', 'message.created']);
  });

  it('has no gap and no duplicate when a client resumes while two processes publish', async () => {
    // A second publisher on its own connection, as a worker process would be.
    const connection = t.redis.duplicate();
    const other = new LiveEventsService(connection, new RedisKeys(t.config), DEFAULT_LIVE_EVENTS_OPTIONS);
    const published: string[] = [];
    let stop = false;
    // Both keep publishing through the whole connect (subscribe, replay, going live).
    const pump = async (publisher: LiveEventsService): Promise<void> => {
      while (!stop) published.push(await kept(publisher.append(a.workspace.id, 'message.created', { mark: 'pumped' })));
    };
    const pumps = [pump(events), pump(other)];
    while (published.length < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    const resumeAfter = [...published].sort(compareEventIds)[19]!;

    const client = await connect({ ...bearer(a.key), 'Last-Event-ID': resumeAfter });
    const atOpen = published.length;
    while (published.length < atOpen + 40) await new Promise((resolve) => setTimeout(resolve, 5));
    stop = true;
    await Promise.all(pumps);
    await connection.quit();
    const last = await kept(events.append(a.workspace.id, 'message.created', { mark: 'last' }));
    await client.waitFor('the last event', (c) => marks(c).includes('last'));

    const expected = [...published].sort(compareEventIds).filter((id) => compareEventIds(id, resumeAfter) > 0);
    expect(client.events.map((e) => e.id)).toEqual([...expected, last]);
  });

  it('resumes from ?last_event_id= for clients that cannot set headers; the header wins over it', async () => {
    const from = await kept(events.append(a.workspace.id, 'message.created', { mark: 'q1' }));
    await kept(events.append(a.workspace.id, 'message.created', { mark: 'q2' }));
    const last = await kept(events.append(a.workspace.id, 'message.created', { mark: 'q3' }));

    const byQuery = await connect(bearer(a.key), `?last_event_id=${from}`);
    await byQuery.waitFor('q3', (c) => marks(c).includes('q3'));
    expect(marks(byQuery)).toEqual(['q2', 'q3']);

    // What a native EventSource sends when it reconnects: its first URL plus the newest id.
    const both = await connect({ ...bearer(a.key), 'Last-Event-ID': last }, `?last_event_id=${from}`);
    await events.publish(a.workspace.id, 'message.created', { mark: 'q4' });
    await both.waitFor('q4', (c) => marks(c).includes('q4'));
    expect(marks(both)).toEqual(['q4']);
  });

  it('replays nothing to a fresh connection and ignores an id from beyond the stream', async () => {
    await kept(events.append(a.workspace.id, 'message.created', { mark: 'before' }));
    const fresh = await connect(bearer(a.key));
    const future = await connect({ ...bearer(a.key), 'Last-Event-ID': '99999999999999-0' });
    await events.publish(a.workspace.id, 'message.created', { mark: 'after' });
    await fresh.waitFor('after', (c) => marks(c).includes('after'));
    await future.waitFor('after', (c) => marks(c).includes('after'));
    expect(marks(fresh)).toEqual(['after']);
    expect(marks(future)).toEqual(['after']);
  });

  it('answers 400 for a malformed Last-Event-ID', async () => {
    for (const bad of ['abc', '12', '1-2-3', '-1-0', '99999999999999999999999-0']) {
      const res = await t.http().get('/api/events').set(bearer(a.key)).set('Last-Event-ID', bad);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: INVALID_LAST_EVENT_ID });
    }
    for (const query of ['?last_event_id=nope', '?last_event_id=1-0&last_event_id=2-0']) {
      const res = await t.http().get(`/api/events${query}`).set(bearer(a.key));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: INVALID_LAST_EVENT_ID });
    }
  });

  it('answers HEAD without holding the connection open', async () => {
    const res = await t.http().head('/api/events').set(bearer(a.key));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  });

  it('sends a keep-alive comment on an idle stream', async () => {
    const client = await connect(bearer(a.key));
    await client.waitFor('a keep-alive comment', (c) => c.comments.includes(' keep-alive'));
    expect(client.events).toEqual([]);
  });

  it('leaves the fan-out when a client disconnects', async () => {
    const fanout = t.app.get(LiveEventFanout);
    open.splice(0).forEach((client) => client.close());
    await eventually('earlier clients to leave', () => fanout.connectionCount === 0);
    const client = await connect(bearer(a.key));
    expect(fanout.connectionCount).toBe(1);
    client.close();
    await eventually('the client to leave', () => fanout.connectionCount === 0);
  });

  describe('who may listen', () => {
    it('401 without credentials', async () => {
      const res = await t.http().get('/api/events');
      expect(res.status).toBe(401);
    });

    it('read keys and sessions with a selected workspace are allowed', async () => {
      const { key } = await t.factories.apiKey(a.workspace.id, 'read');
      const withReadKey = await connect(bearer(key));
      const withHeader = await connect({ Cookie: a.owner.cookie, 'X-Tenant-ID': a.workspace.id });
      const withQuery = await connect({ Cookie: a.owner.cookie }, `?tenant=${a.workspace.id}`);
      const agent = await t.factories.signedInMember(a.workspace.id, 'agent');
      const asAgent = await connect({ Cookie: agent.cookie, 'X-Tenant-ID': a.workspace.id });
      for (const client of [withReadKey, withHeader, withQuery, asAgent]) expect(client.status).toBe(200);

      await events.publish(a.workspace.id, 'session.updated', { mark: 'everyone' });
      for (const client of [withReadKey, withHeader, withQuery, asAgent]) {
        await client.waitFor('the event', (c) => marks(c).includes('everyone'));
      }
    });

    it('a session must select a workspace it belongs to', async () => {
      const none = await t.http().get('/api/events').set('Cookie', a.owner.cookie);
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: 'workspace required (X-Tenant-ID)' });

      const other = await t.http().get('/api/events').set('Cookie', a.owner.cookie).set('X-Tenant-ID', b.workspace.id);
      expect(other.status).toBe(403);
    });

    it("a key cannot listen to another workspace's events", async () => {
      const res = await t.http().get('/api/events').set(bearer(a.key)).set('X-Tenant-ID', b.workspace.id);
      expect(res.status).toBe(403);
    });
  });
});

async function eventually(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
