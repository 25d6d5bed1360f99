import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { dataOf, kept, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });
const marks = (client: SseClient): unknown[] => client.events.map((e) => dataOf(e).mark);

/**
 * Two processes on one Redis prefix, each with its own database (as two replicas behind a load
 * balancer share Redis). The workspace is written to both databases under the same id so either
 * replica authenticates its key.
 */
describe('live events across replicas', () => {
  let api: TestApp;
  let worker: TestApp;
  let workspaceId: string;
  let key: string;
  let workerClosed = false;
  const open: SseClient[] = [];

  beforeAll(async () => {
    api = await createTestApp();
    // A worker-role process publishes (ingest, history sync) but serves no clients in production.
    worker = await createTestApp({ env: { REDIS_PREFIX: api.config.redisPrefix, ROLE: 'worker' } });
    ({ id: workspaceId } = await api.factories.workspace());
    await worker.dataSource.query(`INSERT INTO workspaces (id, name) VALUES ($1, 'replica copy')`, [workspaceId]);
    // Real replicas share one database; these test apps each have their own, so the key is copied
    // for a client to be able to connect to either of them.
    ({ key } = await api.factories.apiKey(workspaceId));
    await worker.dataSource.query(
      `INSERT INTO api_keys (workspace_id, name, scope, key_hash, prefix, created_at, expires_at)
       SELECT workspace_id, name, scope, key_hash, prefix, created_at, expires_at FROM json_populate_recordset(NULL::api_keys, $1)`,
      [JSON.stringify(await api.dataSource.query('SELECT * FROM api_keys WHERE workspace_id = $1', [workspaceId]))],
    );
  });
  afterAll(async () => {
    open.forEach((client) => client.close());
    if (!workerClosed) await worker?.close();
    await api?.close();
  });

  it('delivers an event published by another process to this replica’s clients', async () => {
    const client = await openSse(`${await listenUrl(api.app)}/api/events`, bearer(key));
    open.push(client);
    expect(client.status).toBe(200);
    await worker.app.get(LiveEventsService).publish(workspaceId, 'sync.progress', { mark: 'from worker' });
    await client.waitFor('the event', (c) => marks(c).includes('from worker'));
    expect(client.events.map((e) => e.event)).toEqual(['sync.progress']);
  });

  it('replays on whichever replica the client reconnects to', async () => {
    const publisher = api.app.get(LiveEventsService);
    const first = await openSse(`${await listenUrl(api.app)}/api/events`, bearer(key));
    open.push(first);
    const seen = await kept(publisher.append(workspaceId, 'message.created', { mark: 'seen' }));
    await first.waitFor('seen', (c) => marks(c).includes('seen'));
    first.close();
    const missed = await kept(publisher.append(workspaceId, 'message.updated', { mark: 'missed' }));

    const again = await openSse(`${await listenUrl(worker.app)}/api/events`, { ...bearer(key), 'Last-Event-ID': seen });
    open.push(again);
    await again.waitFor('missed', (c) => marks(c).includes('missed'));
    await publisher.publish(workspaceId, 'message.created', { mark: 'live' });
    await again.waitFor('live', (c) => marks(c).includes('live'));
    expect(marks(again)).toEqual(['missed', 'live']);
    expect(again.events[0]!.id).toBe(missed);
  });

  // Last: closing a test app deletes every key of the shared prefix.
  it('ends open streams on shutdown so the process can exit', async () => {
    const client = await openSse(`${await listenUrl(worker.app)}/api/events`, bearer(key));
    open.push(client);
    expect(client.status).toBe(200);
    workerClosed = true;
    await worker.close();
    await client.waitForEnd();
    expect(client.ended).toBe(true);
  });
});
