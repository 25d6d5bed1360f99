import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisKeys } from '../../src/infra/redis/redis.module.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS, LIVE_EVENTS_OPTIONS } from '../../src/modules/events/live-events.options.js';
import { dataOf, kept, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { TEST_REDIS_URL } from '../support/test-env.js';

const marks = (client: SseClient): unknown[] => client.events.map((e) => dataOf(e).mark);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Events of a workspace nobody watches are neither PUBLISHed nor kept for replay: a pattern
 * subscription (which Redis does not count as a channel's subscriber) sees what the publish script
 * sends to the channel. A stream connection marks the workspace watched; once it closes, events
 * are kept for twice the replay window, so a client resuming within the window misses nothing.
 */
describe('live events of a workspace nobody watches', () => {
  let t: TestApp;
  let workspaceId: string;
  let key: string;
  let spy: Redis;
  let base: string;
  const published: string[] = [];
  const open: SseClient[] = [];
  const streamKey = (): string => t.app.get(RedisKeys).key('events', workspaceId, 'stream');
  const watchKey = (): string => t.app.get(RedisKeys).key('events', workspaceId, 'watched');

  beforeAll(async () => {
    t = await createTestApp();
    ({ id: workspaceId } = await t.factories.workspace());
    ({ key } = await t.factories.apiKey(workspaceId));
    base = `${await listenUrl(t.app)}/api/events`;
    spy = new Redis(TEST_REDIS_URL);
    spy.on('pmessage', (_pattern: string, _channel: string, message: string) => published.push(message));
    await spy.psubscribe(t.app.get(LiveEventsService).channelOf(workspaceId));
  });
  afterAll(async () => {
    open.forEach((client) => client.close());
    spy?.disconnect();
    await t?.close();
  });

  it('drops the event, publishes once a client listens, and keeps what happens while it is away', async () => {
    const events = t.app.get(LiveEventsService);
    expect(await events.append(workspaceId, 'sync.progress', { mark: 'unwatched' })).toBeUndefined();
    expect(await events.watched([workspaceId])).toEqual(new Set());
    await sleep(300);
    expect(published).toEqual([]);
    expect(await t.redis.exists(streamKey())).toBe(0);

    const client = await openSse(base, { Authorization: `Bearer ${key}` });
    open.push(client);
    expect(client.status).toBe(200);
    await client.waitFor('the stream to open', (c) => c.comments.includes(' connected'));
    expect(await events.watched([workspaceId])).toEqual(new Set([workspaceId]));
    await events.publish(workspaceId, 'sync.progress', { mark: 'watched' });
    await client.waitFor('the watched event', (c) => marks(c).includes('watched'));
    await sleep(100);
    expect(published).toHaveLength(1);
    expect(published[0]).toContain('"mark":"watched"');
    const last = client.events.at(-1)!.id!;
    client.close();

    // Gone, but it can come back within the window: what happens meanwhile is kept, not sent.
    await sleep(100);
    const ttl = await t.redis.pttl(watchKey());
    expect(ttl).toBeGreaterThan(DEFAULT_LIVE_EVENTS_OPTIONS.replayWindowMs);
    expect(ttl).toBeLessThanOrEqual(2 * DEFAULT_LIVE_EVENTS_OPTIONS.replayWindowMs);
    const away = await kept(events.append(workspaceId, 'sync.progress', { mark: 'away' }));
    await sleep(100);
    expect(published).toHaveLength(1);

    const resumed = await openSse(base, { Authorization: `Bearer ${key}`, 'Last-Event-ID': last });
    open.push(resumed);
    await resumed.waitFor('the replay', (c) => marks(c).includes('away'));
    expect(marks(resumed)).toEqual(['away']);
    expect(resumed.events[0]!.id).toBe(away);
  });

  it('a publisher in another process sees the mark too', async () => {
    const { id: other } = await t.factories.workspace();
    const connection = t.redis.duplicate();
    try {
      const elsewhere = new LiveEventsService(connection, new RedisKeys(t.config), DEFAULT_LIVE_EVENTS_OPTIONS);
      expect(await elsewhere.appendAll(other, [{ name: 'sync.progress', data: { mark: 'x' } }])).toEqual([]);
      await t.app.get(LiveEventsService).markWatched([other]);
      expect(await elsewhere.watched([other, workspaceId, other])).toEqual(new Set([other, workspaceId]));
      expect(await elsewhere.appendAll(other, [{ name: 'sync.progress', data: { mark: 'y' } }])).toHaveLength(1);
    } finally {
      connection.disconnect();
    }
  });
});

/** The mark's lifetime, with a replay window of one second (so twice the window is two). */
describe('the watch mark over time', () => {
  const options = { ...DEFAULT_LIVE_EVENTS_OPTIONS, replayWindowMs: 1_000 };
  let t: TestApp;
  let workspaceId: string;
  let key: string;
  let events: LiveEventsService;
  const open: SseClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({ customize: (builder) => builder.overrideProvider(LIVE_EVENTS_OPTIONS).useValue(options) });
    ({ id: workspaceId } = await t.factories.workspace());
    ({ key } = await t.factories.apiKey(workspaceId));
    events = t.app.get(LiveEventsService);
  });
  afterAll(async () => {
    open.forEach((client) => client.close());
    await t?.close();
  });

  it('lasts while a stream is open, then twice the window after it closed', async () => {
    const client = await openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${key}` });
    open.push(client);
    await client.waitFor('the stream to open', (c) => c.comments.includes(' connected'));
    // Longer than the mark lives without a refresh: the open stream keeps it.
    await sleep(2.5 * options.replayWindowMs);
    expect(await t.redis.exists(t.app.get(RedisKeys).key('events', workspaceId, 'watched'))).toBe(1);
    client.close();
    // The clock starts once the server has let go of the channel (under load it notices the
    // close a little later; until then the workspace is still watched).
    const channel = events.channelOf(workspaceId);
    while (Number(((await t.redis.pubsub('NUMSUB', channel)) as unknown[])[1]) > 0) await sleep(10);
    await sleep(1.5 * options.replayWindowMs);
    // Closed 1.5 windows ago: still kept, for a client that resumes.
    expect(await events.append(workspaceId, 'sync.progress', { mark: 'kept' })).toBeDefined();
    await sleep(options.replayWindowMs);
    expect(await events.append(workspaceId, 'sync.progress', { mark: 'dropped' })).toBeUndefined();
    expect(await events.watched([workspaceId])).toEqual(new Set());
  });

  it('marks, within half a window, a workspace that a process without marks subscribes to (an older version during an upgrade)', async () => {
    const { id: legacy } = await t.factories.workspace();
    const mark = t.app.get(RedisKeys).key('events', legacy, 'watched');
    // An api process of a version before watch marks: SUBSCRIBE, no mark.
    const old = new Redis(TEST_REDIS_URL);
    try {
      await old.subscribe(events.channelOf(legacy));
      const deadline = Date.now() + 3 * options.replayWindowMs;
      while ((await t.redis.exists(mark)) === 0 && Date.now() < deadline) await sleep(50);
      expect(await t.redis.exists(mark)).toBe(1);
    } finally {
      old.disconnect();
    }
    // That process stopped: its clients reconnect elsewhere and find what happened meanwhile.
    await sleep(100);
    expect(await events.append(legacy, 'sync.progress', { mark: 'meanwhile' })).toBeDefined();
  });

  it('counts an open stream as watching even when its mark is lost (a flushed Redis)', async () => {
    const client = await openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${key}` });
    open.push(client);
    await client.waitFor('the stream to open', (c) => c.comments.includes(' connected'));
    await t.redis.del(t.app.get(RedisKeys).key('events', workspaceId, 'watched'));
    expect(await events.watched([workspaceId])).toEqual(new Set([workspaceId]));
    await events.publish(workspaceId, 'sync.progress', { mark: 'live' });
    await client.waitFor('the live event', (c) => marks(c).includes('live'));
  });
});
