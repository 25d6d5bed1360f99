import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import { Webhook } from 'standardwebhooks';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { WebhookDeliveryProcessor } from '../../src/modules/webhooks/delivery/webhook-delivery.processor.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, eventually, type Owned, ownedWorkspace, Receiver, type Received, secretOf } from './webhook-support.js';

// A backlog for one endpoint goes out in batches (a job claims up to 25 deliveries of its
// endpoint): what a receiver sees must not change.
describe('webhook delivery: a backlog for one endpoint', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  let outbox: WebhookOutbox;
  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp({ WEBHOOK_ENDPOINT_CONCURRENCY: '2' }), Receiver.start()]);
    outbox = s.t.app.get(WebhookOutbox);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  /** `count` meta.chat events for the workspace's webhook, written and queued while the worker is paused, then let go. */
  async function backlog(owned: Owned, count: number): Promise<string[]> {
    const worker = s.t.app.get(WebhookDeliveryProcessor).worker;
    await worker.pause(true);
    const ids: string[] = [];
    try {
      for (let n = 0; n < count; n++) {
        const written = await inTransaction(s.t.dataSource, (tx) =>
          outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: `{"n":${n}}`, sourceKey: `backlog-${n}` }),
        );
        await outbox.enqueue(owned.workspaceId, written);
        ids.push(...written);
      }
    } finally {
      await worker.resume();
    }
    return ids;
  }

  const deliveries = async (owned: Owned): Promise<{ id: string; status: string; attempts: number; claimed_until: Date | null }[]> =>
    s.t.dataSource.query(`SELECT id, status, attempts, claimed_until FROM webhook_deliveries WHERE workspace_id = $1`, [owned.workspaceId]);

  const verified = async (owned: Owned, requests: Received[]): Promise<void> => {
    const secret = await secretOf(owned);
    for (const request of requests) {
      expect(request.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
      expect(() => new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    }
  };

  it('delivers every delivery once, in one attempt, under its own webhook-id and signatures', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/backlog-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['meta.chat'] });
    const ids = await backlog(owned, 80);
    const requests = await receiver.waitFor(80, path, 30_000);
    await eventually('all delivered', async () => (await deliveries(owned)).every((row) => row.status === 'delivered'));
    // Long enough for a stray job or sweep to send something twice, if anything would.
    await new Promise((done) => setTimeout(done, 1500));
    const received = receiver.at(path);
    expect(received.map((request) => request.headers['webhook-id']).sort()).toEqual([...ids].sort());
    expect(received.map((request) => request.body.toString()).sort()).toEqual(Array.from({ length: 80 }, (_, n) => `{"n":${n}}`).sort());
    await verified(owned, requests);
    const rows = await deliveries(owned);
    expect(rows.every((row) => row.attempts === 1 && row.claimed_until === null)).toBe(true);
    const attempts: { n: number }[] = await s.t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE workspace_id = $1`, [
      owned.workspaceId,
    ]);
    expect(attempts[0]!.n).toBe(80);
  });

  it('a failure in the middle of a batch: that delivery is retried, the others are sent once, nothing is lost', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/failing-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['meta.chat'] });
    const failed = new Set<string>();
    receiver.reply = (request) => {
      const body = request.body.toString();
      // Each of these answers 500 the first time only.
      if (request.path === path && ['{"n":5}', '{"n":17}', '{"n":30}'].includes(body) && !failed.has(body)) {
        failed.add(body);
        return { status: 500 };
      }
      return { status: 200 };
    };
    try {
      const ids = await backlog(owned, 40);
      await receiver.waitFor(43, path, 30_000);
      await eventually('all delivered', async () => (await deliveries(owned)).every((row) => row.status === 'delivered'));
      await new Promise((done) => setTimeout(done, 1500));
      const received = receiver.at(path);
      expect(received).toHaveLength(43);
      const byId = new Map<string, number>();
      for (const request of received) byId.set(String(request.headers['webhook-id']), (byId.get(String(request.headers['webhook-id'])) ?? 0) + 1);
      expect([...byId.keys()].sort()).toEqual([...ids].sort());
      expect([...byId.values()].filter((n) => n === 2)).toHaveLength(3);
      const rows = await deliveries(owned);
      expect(rows.filter((row) => row.attempts === 2)).toHaveLength(3);
      expect(rows.every((row) => row.claimed_until === null)).toBe(true);
    } finally {
      receiver.reply = () => ({ status: 200 });
    }
  });

  it('wakes an endpoint with one drain job however many deliveries are queued for it, and retries wake it again when due', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/coalesced-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['meta.chat'] });
    const queue = s.t.app.get<Queue>(getQueueToken(QueueName.WebhookDelivery));
    // The queue paused (not the worker): wake-ups wait where they can be counted.
    await queue.pause();
    let waiting: Job[];
    try {
      for (let n = 0; n < 30; n++) {
        const written = await inTransaction(s.t.dataSource, (tx) =>
          outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: `{"n":${n}}`, sourceKey: `coalesced-${n}` }),
        );
        await outbox.enqueue(owned.workspaceId, written);
      }
      waiting = (await queue.getJobs(['waiting', 'active', 'delayed'])).filter((job) => job.data.workspaceId === owned.workspaceId);
    } finally {
      await queue.resume();
    }
    // Thirty deliveries, one wake-up of their endpoint (the rows are the queue).
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.name).toBe('drain');
    let first = true;
    receiver.reply = (request) => {
      if (request.path === path && request.body.toString() === '{"n":0}' && first) {
        first = false;
        return { status: 503 };
      }
      return { status: 200 };
    };
    try {
      await receiver.waitFor(31, path, 30_000);
      await eventually('all delivered', async () => (await deliveries(owned)).every((row) => row.status === 'delivered'));
      const ids = receiver.at(path).map((request) => request.headers['webhook-id']);
      expect(new Set(ids).size).toBe(30);
    } finally {
      receiver.reply = () => ({ status: 200 });
    }
  });
});
