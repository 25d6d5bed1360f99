import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { TEST_REDIS_URL } from '../support/test-env.js';

const marks = (client: SseClient): unknown[] => client.events.map((e) => dataOf(e).mark);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Events of a workspace nobody watches are appended to its replay stream but not PUBLISHed: a
 * pattern subscription (which Redis does not count as a channel's subscriber) sees what the
 * publish script sends to the channel, and a client resuming with Last-Event-ID still gets it.
 */
describe('live events of a workspace nobody watches', () => {
  let t: TestApp;
  let workspaceId: string;
  let key: string;
  let spy: Redis;
  const published: string[] = [];
  const open: SseClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    ({ id: workspaceId } = await t.factories.workspace());
    ({ key } = await t.factories.apiKey(workspaceId));
    spy = new Redis(TEST_REDIS_URL);
    spy.on('pmessage', (_pattern: string, _channel: string, message: string) => published.push(message));
    await spy.psubscribe(t.app.get(LiveEventsService).channelOf(workspaceId));
  });
  afterAll(async () => {
    open.forEach((client) => client.close());
    spy?.disconnect();
    await t?.close();
  });

  it('stores the event for replay without publishing it, and publishes once a client listens', async () => {
    const events = t.app.get(LiveEventsService);
    const unwatched = await events.append(workspaceId, 'sync.progress', { mark: 'unwatched' });
    await sleep(300);
    expect(published).toEqual([]);

    const base = `${await listenUrl(t.app)}/api/events`;
    const client = await openSse(base, { Authorization: `Bearer ${key}` });
    open.push(client);
    expect(client.status).toBe(200);
    await client.waitFor('the stream to open', (c) => c.comments.includes(' connected'));
    await events.publish(workspaceId, 'sync.progress', { mark: 'watched' });
    await client.waitFor('the watched event', (c) => marks(c).includes('watched'));
    await sleep(100);
    expect(published).toHaveLength(1);
    expect(published[0]).toContain('"mark":"watched"');
    client.close();

    // The unpublished event was in the stream all along: a client resuming before it gets it.
    const resumed = await openSse(base, { Authorization: `Bearer ${key}`, 'Last-Event-ID': '0-1' });
    open.push(resumed);
    await resumed.waitFor('the replay', (c) => marks(c).includes('watched'));
    expect(marks(resumed)).toEqual(['unwatched', 'watched']);
    expect(resumed.events[0]!.id).toBe(unwatched);
  });
});
