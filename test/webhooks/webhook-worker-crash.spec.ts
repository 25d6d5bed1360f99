// The outbox across a real crash: a worker process (the built service, ROLE=worker) is killed
// with SIGKILL while its endpoint is down and deliveries wait for their retries; a new worker
// process delivers them once the endpoint is back. Nothing lost, nothing sent twice.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { addWebhook, eventually, ownedWorkspace, Receiver } from './webhook-support.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'dist/src/main.js');

describe('webhook outbox: a worker killed while the endpoint is down', () => {
  let t: TestApp;
  let receiver: Receiver | undefined;
  const children: ChildProcess[] = [];
  let output = '';

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe' });
    // This process only writes and queues (ROLE=api runs no workers and no sweeper).
    t = await createTestApp({ env: { ROLE: 'api', ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' } });
  }, 180_000);
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await receiver?.close();
    await t?.close();
  });

  function startWorker(): ChildProcess {
    const child = spawn(process.execPath, [MAIN], {
      cwd: mkdtempSync(join(tmpdir(), 'webhook-worker-')),
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        ROLE: 'worker',
        DATABASE_URL: t.config.databaseUrl,
        DB_MIGRATE_ON_START: 'false',
        REDIS_URL: t.config.redisUrl,
        REDIS_PREFIX: t.config.redisPrefix,
        LOG_LEVEL: 'warn',
        ALLOW_HTTP_WEBHOOKS: 'true',
        ALLOW_PRIVATE_WEBHOOKS: 'true',
        WEBHOOK_RETRY_SCHEDULE: Array<string>(10).fill('2s').join(','),
        WEBHOOK_SWEEP_INTERVAL_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    children.push(child);
    return child;
  }

  it('delivers every event exactly once after a new worker starts', async () => {
    // The endpoint's address, taken and released: down (connection refused) until it starts again.
    const probe = await Receiver.start();
    const port = probe.port;
    await probe.close();
    const owned = await ownedWorkspace(t);
    await addWebhook(owned, `http://127.0.0.1:${port}/hook`, { events: ['meta.chat'] });

    const outbox = t.app.get(WebhookOutbox);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const written = await inTransaction(t.dataSource, (tx) =>
        outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: `{"n":${i}}`, sourceKey: `crash-${i}` }),
      );
      await outbox.enqueue(owned.workspaceId, written);
      ids.push(...written);
    }
    expect(ids).toHaveLength(3);

    const first = startWorker();
    const queue = t.app.get<Queue>(getQueueToken(QueueName.WebhookDelivery));
    // Every delivery failed at least once and waits for its retry (parked in the delayed set).
    await eventually(
      'three failed attempts, nothing running',
      async () => {
        const rows: { n: number }[] = await t.dataSource.query(`SELECT count(DISTINCT delivery_id)::int AS n FROM webhook_attempts WHERE workspace_id = $1`, [
          owned.workspaceId,
        ]);
        const counts = await queue.getJobCounts('active', 'delayed');
        return rows[0]!.n === 3 && counts.active === 0 && counts.delayed === 3;
      },
      60_000,
    );
    first.kill('SIGKILL');
    await new Promise((done) => first.once('exit', done));

    receiver = await Receiver.start(port);
    // Nobody delivers while no worker runs.
    await new Promise((done) => setTimeout(done, 2500));
    expect(receiver.received).toEqual([]);
    const pending: { status: string }[] = await t.dataSource.query(`SELECT status FROM webhook_deliveries WHERE workspace_id = $1`, [owned.workspaceId]);
    expect(pending.map((row) => row.status)).toEqual(['pending', 'pending', 'pending']);

    startWorker();
    await receiver.waitFor(3, '/hook', 60_000);
    await eventually(
      'three delivered',
      async () => {
        const rows: { status: string }[] = await t.dataSource.query(`SELECT status FROM webhook_deliveries WHERE workspace_id = $1`, [owned.workspaceId]);
        return rows.every((row) => row.status === 'delivered');
      },
      30_000,
    );
    // Long enough for a sweep or a stray retry to show a duplicate, if there were one.
    await new Promise((done) => setTimeout(done, 2500));
    const byId = receiver.received.map((request) => request.headers['webhook-id']).sort();
    expect(byId).toEqual([...ids].sort());
    expect(receiver.received.map((request) => request.body.toString()).sort()).toEqual(['{"n":0}', '{"n":1}', '{"n":2}']);
  }, 150_000);
});
