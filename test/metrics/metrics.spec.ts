import { createServer } from 'node:net';
import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import { ScanLeases } from '../../src/modules/chat/session/scan-leases.js';
import { ScanLiveStateStore } from '../../src/modules/chat/session/scan-live-state.store.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { labelValues, sample } from './prometheus-text.js';

const TOKEN = 'metrics-token-0123456789abcdef';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /metrics on an api process (public: no METRICS_TOKEN)', () => {
  let t: TestApp;
  const scrape = async (): Promise<string> => {
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    return res.text;
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers Prometheus text without credentials', async () => {
    const res = await t.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.text).toContain('# TYPE inbox_http_request_duration_seconds histogram');
  });

  it('labels HTTP latency by route template and status, never by the raw path', async () => {
    const { workspace } = await t.factories.workspaceWithOwner();
    const { key } = await t.factories.apiKey(workspace.id, 'read');
    const id = randomUUID();
    expect((await t.http().get(`/api/conversations/${id}`).set('Authorization', `Bearer ${key}`)).status).toBe(404);
    expect((await t.http().get(`/api/conversations/${id}`).set('Authorization', `Bearer ${key}`)).status).toBe(404);
    expect((await t.http().get('/api/conversations').set('Authorization', `Bearer ${key}`)).status).toBe(200);
    const stray = `/api/no-such-route-${randomUUID()}`;
    expect((await t.http().get(stray)).status).toBe(404);

    const text = await scrape();
    const count = (route: string, status: string): number | undefined =>
      sample(text, 'inbox_http_request_duration_seconds_count', { method: 'GET', route, status });
    expect(count('/api/conversations/:id', '404')).toBe(2);
    expect(count('/api/conversations', '200')).toBe(1);
    expect(count('unmatched', '404')).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain(stray);
    for (const route of labelValues(text, 'inbox_http_request_duration_seconds', 'route')) expect(route).toMatch(/^(\/[\w:/-]*|unmatched)$/);
  });

  it('reports queue depths per queue and state, cluster-wide from Redis', async () => {
    const queue = t.app.get<Queue>(getQueueToken(QueueName.HistorySync));
    await queue.add('probe', { workspaceId: randomUUID(), batchId: randomUUID() });
    await queue.add('probe', { workspaceId: randomUUID(), batchId: randomUUID() }, { delay: 60_000 });
    const text = await scrape();
    // An api process runs no workers: the jobs stay where they are.
    expect(sample(text, 'inbox_queue_jobs', { queue: QueueName.HistorySync, state: 'waiting' })).toBe(1);
    expect(sample(text, 'inbox_queue_jobs', { queue: QueueName.HistorySync, state: 'delayed' })).toBe(1);
    expect(sample(text, 'inbox_queue_jobs', { queue: QueueName.MediaDownload, state: 'waiting' })).toBe(0);
    expect(labelValues(text, 'inbox_queue_jobs', 'queue').sort()).toEqual(Object.values(QueueName).sort());
  });

  it('counts linked, connected and QR-pending scan sessions from Postgres and the holders’ live state', async () => {
    const linkedConnected = (await t.factories.workspaceWithOwner()).workspace.id;
    const linkedOffline = (await t.factories.workspaceWithOwner()).workspace.id;
    const showingQr = (await t.factories.workspaceWithOwner()).workspace.id;
    const stopped = (await t.factories.workspaceWithOwner()).workspace.id;
    await t.dataSource.query(
      `INSERT INTO scan_sessions (workspace_id, desired, linked) VALUES ($1, 'running', true), ($2, 'running', true), ($3, 'running', false), ($4, 'stopped', true)`,
      [linkedConnected, linkedOffline, showingQr, stopped],
    );
    const leases = t.app.get(ScanLeases);
    const live = t.app.get(ScanLiveStateStore);
    for (const [workspaceId, state] of [
      [linkedConnected, { connected: true, qr: null }],
      [showingQr, { connected: false, qr: '2@code' }],
    ] as const) {
      const token = ScanLeases.token('test-holder');
      await leases.acquire(workspaceId, token, 60_000);
      await live.write(workspaceId, token, state);
    }
    // A crashed holder's hash (its lease gone) counts as nothing.
    await live.write(linkedOffline, 'dead/holder', { connected: true, qr: null });

    const text = await scrape();
    expect(sample(text, 'inbox_scan_sessions', { state: 'linked' })).toBe(2);
    expect(sample(text, 'inbox_scan_sessions', { state: 'connected' })).toBe(1);
    expect(sample(text, 'inbox_scan_sessions', { state: 'qr_pending' })).toBe(1);
    expect(sample(text, 'inbox_scan_sockets_held')).toBe(0);
  });

  it('counts ingested messages by channel, path and result (a redelivery is a duplicate)', async () => {
    const { workspace } = await t.factories.workspaceWithOwner();
    const inbox = new InboxFactories(t.app);
    const before = sample(await scrape(), 'inbox_messages_ingested_total', { channel: 'scan', path: 'live', result: 'created' }) ?? 0;
    const message = inbox.inbound();
    await inbox.ingest.ingest(workspace.id, message);
    await inbox.ingest.ingest(workspace.id, message);
    await inbox.ingest.ingestBatch(workspace.id, [inbox.inbound(), inbox.inbound(), message]);
    const text = await scrape();
    expect(sample(text, 'inbox_messages_ingested_total', { channel: 'scan', path: 'live', result: 'created' })).toBe(before + 1);
    expect(sample(text, 'inbox_messages_ingested_total', { channel: 'scan', path: 'live', result: 'duplicate' })).toBe(1);
    expect(sample(text, 'inbox_messages_ingested_total', { channel: 'scan', path: 'batch', result: 'created' })).toBe(2);
    expect(sample(text, 'inbox_messages_ingested_total', { channel: 'scan', path: 'batch', result: 'duplicate' })).toBe(1);
  });
});

describe('metrics of a worker process: METRICS_PORT and METRICS_TOKEN', () => {
  let t: TestApp;
  let port: number;
  const get = (path: string, authorization?: string): Promise<Response> =>
    fetch(`http://127.0.0.1:${port}${path}`, { headers: authorization ? { Authorization: authorization } : {} });

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ env: { ROLE: 'worker', METRICS_PORT: String(port), METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the same text on METRICS_PORT with the token, and 401 without it or with a wrong one', async () => {
    const ok = await get('/metrics', `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await ok.text()).toContain('# TYPE inbox_queue_jobs_processed_total counter');
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `bearer ${TOKEN}`, `Bearer  ${TOKEN}`, TOKEN]) {
      const refused = await get('/metrics', authorization);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: 'unauthorized' });
    }
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const elsewhere = await get('/api/health', `Bearer ${TOKEN}`);
    expect([elsewhere.status, await elsewhere.json()]).toEqual([404, { error: 'not found', code: 'not_found' }]);
    const head = await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'HEAD', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('serves nothing on the API port then: /metrics there is an unknown path, token or not', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const request = t.http().get('/metrics');
      const res = await (authorization ? request.set('Authorization', authorization) : request);
      expect([res.status, res.body]).toEqual([404, { error: 'not found', code: 'not_found' }]);
    }
  });
  it("counts the outcomes of this process's jobs per queue: completed, retried, failed", async () => {
    const queue = t.app.get<Queue>(getQueueToken(QueueName.MediaDownload));
    // A message that does not exist: nothing to download, the job completes.
    await queue.add('probe', { workspaceId: randomUUID(), messageId: randomUUID() });
    // Ids Postgres refuses: the job throws; with one attempt it fails for good, with two it is retried first.
    await queue.add('probe', { workspaceId: 'not-a-uuid', messageId: 'x' }, { attempts: 1 });
    await queue.add('probe', { workspaceId: 'not-a-uuid', messageId: 'y' }, { attempts: 2, backoff: { type: 'fixed', delay: 10 } });
    const outcome = async (name: string): Promise<number | undefined> =>
      sample(await (await get('/metrics', `Bearer ${TOKEN}`)).text(), 'inbox_queue_jobs_processed_total', { queue: QueueName.MediaDownload, outcome: name });
    await eventually(async () => (await outcome('failed')) === 2, 'two jobs failing for good');
    expect(await outcome('completed')).toBe(1);
    expect(await outcome('retried')).toBe(1);
  });
});

describe('GET /metrics on an api process with METRICS_TOKEN (no METRICS_PORT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api', METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('asks for the token', async () => {
    expect((await t.http().get('/metrics')).status).toBe(401);
    expect((await t.http().get('/metrics')).body).toEqual({ error: 'unauthorized' });
    expect((await t.http().get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789')).status).toBe(401);
    expect((await t.http().get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(200);
  });
});
