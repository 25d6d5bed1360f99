import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisKeys } from '../../src/infra/redis/redis.module.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS } from '../../src/modules/events/live-events.options.js';
import { dataOf, kept, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { TEST_REDIS_URL } from '../support/test-env.js';

const marks = (client: SseClient): unknown[] => client.events.map((e) => dataOf(e).mark);

/**
 * Pub/sub loses what is published while a subscriber is disconnected. The stream closes its
 * clients when that happens, so they reconnect with Last-Event-ID and the replay fills the gap.
 */
describe('live events when Redis goes away', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: Redis;
  let publisher: LiveEventsService;
  let key: string;
  let workspaceId: string;
  let url: string;

  beforeAll(async () => {
    proxy = await TcpProxy.start(TEST_REDIS_URL);
    t = await createTestApp({ env: { REDIS_URL: proxy.rewrite(TEST_REDIS_URL) } });
    url = `${await listenUrl(t.app)}/api/events`;
    ({
      key,
      workspace: { id: workspaceId },
    } = await t.factories.workspaceWithOwner());
    // Another process's publisher (say, a worker) that still reaches Redis during the outage.
    direct = new Redis(TEST_REDIS_URL);
    publisher = new LiveEventsService(direct, new RedisKeys(t.config), DEFAULT_LIVE_EVENTS_OPTIONS);
  });
  afterAll(async () => {
    await proxy?.open();
    await direct?.quit();
    await t?.close();
    await proxy?.close();
  });

  it('ends the streams, then replays what was published meanwhile on reconnect', async () => {
    const first = await openSse(url, { Authorization: `Bearer ${key}` });
    expect(first.status).toBe(200);
    const before = await kept(publisher.append(workspaceId, 'message.created', { mark: 'before' }));
    await first.waitFor('before', (c) => marks(c).includes('before'));

    await proxy.close();
    await first.waitForEnd();
    await kept(publisher.append(workspaceId, 'message.created', { mark: 'during' }));
    await proxy.open();

    // While the app reconnects to Redis a client may be told 503 and retry, as EventSource does.
    let again: SseClient | undefined;
    for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt++) {
      again?.close();
      again = await openSse(url, { Authorization: `Bearer ${key}`, 'Last-Event-ID': before });
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(again!.status).toBe(200);
    await kept(publisher.append(workspaceId, 'message.created', { mark: 'after' }));
    await again!.waitFor('after', (c) => marks(c).includes('after'));
    expect(marks(again!)).toEqual(['during', 'after']);
    again!.close();
  });
});
