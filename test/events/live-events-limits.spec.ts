import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { RedisKeys } from '../../src/infra/redis/redis.module.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS, LIVE_EVENTS_OPTIONS, type LiveEventsOptions } from '../../src/modules/events/live-events.options.js';
import { dataOf, kept, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const bearer = (key: string, lastEventId?: string): Record<string, string> => ({
  Authorization: `Bearer ${key}`,
  ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
});
const marks = (client: SseClient): unknown[] => client.events.map((e) => dataOf(e).mark);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('GET /api/events: default options', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps streams alive every 25 s: the app runs on the default options', async () => {
    expect(DEFAULT_LIVE_EVENTS_OPTIONS.keepAliveMs).toBe(25_000);
    // What EventsModule provides to the stream, unless a test overrides it.
    expect(t.app.get(LIVE_EVENTS_OPTIONS)).toBe(DEFAULT_LIVE_EVENTS_OPTIONS);

    // And an open stream schedules its keep-alive with it (the spy calls through).
    const { key } = await t.factories.workspaceWithOwner();
    const timers = jest.spyOn(globalThis, 'setInterval');
    const client = await openSse(`${await listenUrl(t.app)}/api/events`, bearer(key));
    try {
      await client.waitFor('the stream to open', (c) => c.comments.includes(' connected'));
      expect(timers.mock.calls.map(([, ms]) => ms)).toContain(25_000);
    } finally {
      timers.mockRestore();
      client.close();
    }
  });
});

describe('GET /api/events: the capped replay stream', () => {
  const options: LiveEventsOptions = { ...DEFAULT_LIVE_EVENTS_OPTIONS, maxStreamLength: 10, replayWindowMs: 3_000 };
  let t: TestApp;
  let base: string;
  let events: LiveEventsService;
  // Redis trims a stream (`MAXLEN ~`, `MINID ~`) by whole nodes of up to this many entries.
  let nodeEntries: number;
  const open: SseClient[] = [];

  const connect = async (headers: Record<string, string>): Promise<SseClient> => {
    const client = await openSse(`${base}/api/events`, headers);
    expect(client.status).toBe(200);
    open.push(client);
    return client;
  };
  const streamKey = (workspaceId: string): string => t.app.get(RedisKeys).key('events', workspaceId, 'stream');
  const publishMany = async (publisher: LiveEventsService, workspaceId: string, prefix: string, n: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await kept(publisher.append(workspaceId, 'message.created', { mark: `${prefix}${i}` })));
    return ids;
  };
  /** A workspace some client watched a moment ago, so its events are kept for replay. */
  const watchedWorkspace = async (): Promise<{ workspace: { id: string }; key: string }> => {
    const created = await t.factories.workspaceWithOwner();
    await events.markWatched([created.workspace.id]);
    return created;
  };
  /** Connects with `Last-Event-ID: after`, then publishes a live event: what arrives before it is the replay. */
  const replayAfter = async (key: string, workspaceId: string, after: string): Promise<unknown[]> => {
    const client = await connect(bearer(key, after));
    await kept(events.append(workspaceId, 'message.created', { mark: 'live' }));
    await client.waitFor('the live event', (c) => marks(c).includes('live'));
    return marks(client).slice(0, -1);
  };

  beforeAll(async () => {
    t = await createTestApp({ customize: (builder) => builder.overrideProvider(LIVE_EVENTS_OPTIONS).useValue(options) });
    base = await listenUrl(t.app);
    events = t.app.get(LiveEventsService);
    const config = (await t.redis.config('GET', 'stream-node-max-entries')) as string[];
    nodeEntries = Number(config[1] ?? 100);
  });
  afterEach(() => {
    open.splice(0).forEach((client) => client.close());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps about maxStreamLength events, and replays only those', async () => {
    const { workspace, key } = await watchedWorkspace();
    const ids = await publishMany(events, workspace.id, 'e', 300);
    const length = await t.redis.xlen(streamKey(workspace.id));
    expect(length).toBeLessThanOrEqual(options.maxStreamLength + nodeEntries);

    // Resuming from the first event serves what is left: the newest `length` events, in order.
    const replayed = await replayAfter(key, workspace.id, ids[0]!);
    expect(replayed).toEqual(Array.from({ length }, (_, i) => `e${300 - length + i}`));
  });

  it('keeps trimming a busy stream to the replay window', async () => {
    const { workspace, key } = await watchedWorkspace();
    // A publisher without the length cap, so only the window trims.
    const uncapped = new LiveEventsService(t.redis, t.app.get(RedisKeys), { ...options, maxStreamLength: 100_000 });
    const old = await publishMany(uncapped, workspace.id, 'old', 300);
    // Activity within the window keeps the stream from expiring while the old events age out.
    await sleep(options.replayWindowMs * 0.6);
    await kept(uncapped.append(workspace.id, 'message.created', { mark: 'keeper' }));
    await sleep(options.replayWindowMs * 0.6);
    await kept(uncapped.append(workspace.id, 'message.created', { mark: 'new' }));

    expect(await t.redis.xlen(streamKey(workspace.id))).toBeLessThanOrEqual(nodeEntries + 2);
    const replayed = await replayAfter(key, workspace.id, old[0]!);
    // At most the old events that shared a node with newer ones are left; the oldest are gone.
    expect(replayed).not.toContain('old1');
    expect(replayed.filter((mark) => String(mark).startsWith('old')).length).toBeLessThanOrEqual(nodeEntries);
    expect(replayed.slice(-1)).toEqual(['new']);
  });

  it('replays nothing older than the window after a quiet spell', async () => {
    const { workspace, key } = await watchedWorkspace();
    const [first] = await publishMany(events, workspace.id, 'quiet', 2);
    // Nothing is published for longer than the window: the stream expires as a whole.
    const deadline = Date.now() + 10 * options.replayWindowMs;
    while ((await t.redis.exists(streamKey(workspace.id))) && Date.now() < deadline) await sleep(100);

    expect(await replayAfter(key, workspace.id, first!)).toEqual([]);
  });
});
