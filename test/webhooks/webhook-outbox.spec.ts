import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { DrainWakeMarks } from '../../src/modules/webhooks/outbox/drain-wake-marks.js';
import { RETENTION_DAYS } from '../../src/modules/webhooks/outbox/outbox-sweeper.service.js';
import { OutboxRepository } from '../../src/modules/webhooks/outbox/outbox.repository.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, deliveriesLeftAfter, eventually, ownedWorkspace, Receiver, secretOf } from './webhook-support.js';

// A provider payload as it arrives: not how JSON.stringify would write it (spacing, key order,
// escapes), so only a byte-exact forwarder delivers (and signs) it unchanged.
const META_BODY = Buffer.from(
  '{"object":"whatsapp_business_account", "entry":[{"id":"1","changes":[{"field":"messages","value":{"text":"caf\\u00e9 ☕"}}]}]}\n',
  'utf8',
);

describe('WebhookOutbox: the seam channels write their events through', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  let outbox: WebhookOutbox;
  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
    outbox = s.t.app.get(WebhookOutbox);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  const write = (workspaceId: string, sourceKey: string, body: Buffer | string = META_BODY): Promise<string[]> =>
    inTransaction(s.t.dataSource, (tx) => outbox.write(workspaceId, tx, { event: 'meta.chat', body, sourceKey }));

  it('forwards meta.chat with the exact bytes written, signed over those bytes', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/meta-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['meta.chat'] });
    await addWebhook(owned, receiver.url(`/scan-only-${owned.workspaceId}`), { events: ['scan.chat'] });
    const ids = await write(owned.workspaceId, 'wamid.1');
    expect(ids).toHaveLength(1);
    await outbox.enqueue(owned.workspaceId, ids);
    const [request] = await receiver.waitFor(1, path);
    expect(request!.body.equals(META_BODY)).toBe(true);
    expect(request!.headers['x-svc-event']).toBe('meta.chat');
    expect(request!.headers['webhook-id']).toBe(ids[0]);
    const secret = await secretOf(owned);
    expect(request!.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', secret).update(META_BODY).digest('hex')}`);
    expect(() => new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).not.toThrow();
    expect(receiver.at(`/scan-only-${owned.workspaceId}`)).toEqual([]);
  });

  it('writes one delivery per enabled subscribed webhook, and nothing the second time for the same source key', async () => {
    const owned = await ownedWorkspace(s.t);
    await addWebhook(owned, receiver.url(`/one-${owned.workspaceId}`));
    await addWebhook(owned, receiver.url(`/two-${owned.workspaceId}`), { events: ['meta.chat'] });
    await addWebhook(owned, receiver.url(`/off-${owned.workspaceId}`), { enabled: false });
    const first = await write(owned.workspaceId, 'same-key', '{"a":1}');
    expect(first).toHaveLength(2);
    expect(await write(owned.workspaceId, 'same-key', '{"a":2}')).toEqual([]);
    const rows: { n: number }[] = await s.t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE workspace_id = $1`, [owned.workspaceId]);
    expect(rows[0]!.n).toBe(2);
    // Another workspace's webhooks never get this workspace's events.
    const stranger = await ownedWorkspace(s.t);
    expect(await write(stranger.workspaceId, 'same-key')).toEqual([]);
  });

  it('writes many events in one statement, each body byte for byte; a keyed repeat is a no-op, a keyless event is written every time', async () => {
    const owned = await ownedWorkspace(s.t);
    await addWebhook(owned, receiver.url(`/many-${owned.workspaceId}`), { events: ['meta.chat'] });
    const many = (events: [sourceKey: string | null, body: Buffer | string][]) =>
      inTransaction(s.t.dataSource, (tx) =>
        outbox.writeMany(
          tx,
          events.map(([sourceKey, body]) => ({ workspaceId: owned.workspaceId, event: 'meta.chat' as const, body, sourceKey })),
        ),
      );
    // Texts measured one by one: a trailing lone surrogate and the next body's leading one stay apart.
    const bodies: [string, Buffer | string][] = [
      ['k1', '{"a":"é"}\uD83D'],
      ['k2', '\uDE00{"b":1}'],
      ['k3', Buffer.from([0x00, 0xff, 0x7b])],
      ['k4', ''],
    ];
    expect((await many(bodies)).map((ids) => ids.length)).toEqual([1, 1, 1, 1]);
    expect(
      await many([
        ['k2', 'again'],
        ['k5', '{}'],
      ]),
    ).toEqual([[], [expect.any(String)]]);
    // Keyless (one per message the caller inserted): no repeat check, each write is an event.
    const keyless = await many([
      [null, '{"m":1}'],
      [null, '{"m":1}'],
      [null, Buffer.from([0xde, 0xad])],
    ]);
    expect(keyless.map((ids) => ids.length)).toEqual([1, 1, 1]);
    expect(new Set(keyless.flat()).size).toBe(3);
    const stored: { source_key: string | null; body: Buffer }[] = await s.t.dataSource.query(
      `SELECT source_key, body FROM webhook_events WHERE workspace_id = $1 ORDER BY source_key NULLS LAST, body`,
      [owned.workspaceId],
    );
    const expected: [string | null, Buffer | string][] = [...bodies, ['k5', '{}'], [null, '{"m":1}'], [null, '{"m":1}'], [null, Buffer.from([0xde, 0xad])]];
    expect(stored.map((row) => [row.source_key, row.body.toString('hex')])).toEqual(
      expected.map(([key, body]) => [key, (typeof body === 'string' ? Buffer.from(body, 'utf8') : body).toString('hex')]),
    );
    // Each delivery points at its own event: the ids returned are those of the stored rows.
    const pointed: { n: number }[] = await s.t.dataSource.query(
      `SELECT count(DISTINCT event_id)::int AS n FROM webhook_deliveries WHERE id = ANY($1::uuid[])`,
      [keyless.flat()],
    );
    expect(pointed[0]!.n).toBe(3);
  });

  it('writes nothing when the transaction rolls back, and nothing when no webhook wants the event', async () => {
    const owned = await ownedWorkspace(s.t);
    expect(await write(owned.workspaceId, 'nobody-listens')).toEqual([]);
    await addWebhook(owned, receiver.url(`/rollback-${owned.workspaceId}`));
    await expect(
      inTransaction(s.t.dataSource, async (tx) => {
        await outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: '{}', sourceKey: 'rolled-back' });
        throw new Error('the caller failed after writing');
      }),
    ).rejects.toThrow('the caller failed after writing');
    const rows: { n: number }[] = await s.t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1`, [owned.workspaceId]);
    expect(rows[0]!.n).toBe(0);
  });

  it('never throws from enqueue: a delivery it could not queue is left to the sweeper', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/late-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['meta.chat'] });
    const ids = await write(owned.workspaceId, 'queued-later');
    const queue = (outbox as unknown as { queue: { addBulk: (...args: unknown[]) => Promise<unknown> } }).queue;
    const addBulk = queue.addBulk;
    queue.addBulk = () => Promise.reject(new Error('Redis is away'));
    try {
      await expect(outbox.enqueue(owned.workspaceId, ids)).resolves.toBeUndefined();
    } finally {
      queue.addBulk = addBulk;
    }
    await receiver.waitFor(1, path);
    await eventually('delivered', async () => {
      const rows: { status: string }[] = await s.t.dataSource.query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [ids[0]]);
      return rows[0]?.status === 'delivered';
    });
  });

  it('queues one drain job for the wake-ups that come while it waits, and a new one once it started; every delivery goes out', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/coalesced-${owned.workspaceId}`;
    const hookId = await addWebhook(owned, receiver.url(path), { events: ['meta.chat'] });
    const queue = (outbox as unknown as { queue: Queue }).queue;
    const addBulk = queue.addBulk;
    // This endpoint's drain jobs (the sweeper may wake others meanwhile).
    let jobsAdded = 0;
    queue.addBulk = (jobs) => {
      jobsAdded += jobs.filter((job) => (job.data as { webhookId?: string }).webhookId === hookId).length;
      return addBulk.call(queue, jobs);
    };
    const mark = s.t.app.get(DrainWakeMarks).keyOf(hookId);
    const drainsEnded = () =>
      eventually('no drain job waiting or running', async () => {
        const counts = await queue.getJobCounts('active', 'waiting');
        return counts.active! + counts.waiting! === 0 ? true : null;
      });
    // Paused for the whole queue (atomically, unlike one worker's pause): the drain job waits.
    await queue.pause();
    try {
      // Three commits, each waking the endpoint, while its drain job waits.
      for (const key of ['one', 'two', 'three']) await outbox.enqueue(owned.workspaceId, await write(owned.workspaceId, key));
      expect(jobsAdded).toBe(1);
      expect(await s.t.redis.get(mark)).toBe('queued');
      await queue.resume();
      await receiver.waitFor(3, path);
      await drainsEnded();
      expect(await s.t.redis.get(mark)).toBeNull();
      // That drain started (clearing the mark) and ended: the next commit's wake-up queues a job again.
      await outbox.enqueue(owned.workspaceId, await write(owned.workspaceId, 'four'));
      expect(jobsAdded).toBe(2);
      await receiver.waitFor(4, path);
    } finally {
      await queue.resume();
      queue.addBulk = addBulk;
    }
    // Each delivery once.
    expect(new Set(receiver.at(path).map((request) => request.headers['webhook-id'])).size).toBe(4);
  });

  it("deletes an event's deliveries and their attempts with it, whatever deletes it (one DELETE or a TRUNCATE)", async () => {
    const owned = await ownedWorkspace(s.t);
    const hookId = await addWebhook(owned, receiver.url(`/cascade-${owned.workspaceId}`), { events: ['meta.chat'] });
    const write = async (key: string): Promise<string> => {
      const [id] = await inTransaction(s.t.dataSource, (tx) => outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: '{}', sourceKey: key }));
      await s.t.dataSource.query(
        `INSERT INTO webhook_attempts (workspace_id, webhook_id, delivery_id, attempt, status, duration_ms) VALUES ($1, $2, $3, 1, 'failed', 5)`,
        [owned.workspaceId, hookId, id],
      );
      return id!;
    };
    const gone = await write('cascade-gone');
    const kept = await write('cascade-kept');
    await s.t.dataSource.query(`DELETE FROM webhook_events WHERE workspace_id = $1 AND source_key = 'cascade-gone'`, [owned.workspaceId]);
    const deliveries = (ids: string[]) => s.t.dataSource.query(`SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[])`, [ids]);
    const attempts = (ids: string[]) => s.t.dataSource.query(`SELECT delivery_id FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[])`, [ids]);
    expect(await deliveries([gone, kept])).toEqual([{ id: kept }]);
    expect(await attempts([gone, kept])).toEqual([{ delivery_id: kept }]);

    // TRUNCATE takes the deliveries along, as TRUNCATE … CASCADE did (in a transaction rolled back).
    expect(await deliveriesLeftAfter(s.t, 'TRUNCATE webhook_events')).toBe(0);
  });

  it("deletes a workspace's events and deliveries with the workspace, and only its own", async () => {
    const [gone, kept] = await Promise.all([ownedWorkspace(s.t), ownedWorkspace(s.t)]);
    for (const owned of [gone, kept]) {
      await addWebhook(owned, receiver.url(`/workspace-${owned.workspaceId}`), { events: ['meta.chat'] });
      await inTransaction(s.t.dataSource, (tx) => outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: '{}', sourceKey: 'ws-cascade' }));
    }
    await s.t.dataSource.query(`DELETE FROM workspaces WHERE id = $1`, [gone.workspaceId]);
    const left = (table: string, workspaceId: string) => s.t.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1`, [workspaceId]);
    expect([await left('webhook_events', gone.workspaceId), await left('webhook_deliveries', gone.workspaceId)]).toEqual([[{ n: 0 }], [{ n: 0 }]]);
    expect([await left('webhook_events', kept.workspaceId), await left('webhook_deliveries', kept.workspaceId)]).toEqual([[{ n: 1 }], [{ n: 1 }]]);
  });

  it('prunes finished events past the retention, with their deliveries; keeps recent and unfinished ones', async () => {
    const owned = await ownedWorkspace(s.t);
    // Nothing wakes these deliveries (no enqueue) and the sweeper waits its grace: this test sets their states by hand.
    await addWebhook(owned, receiver.url(`/prune-${owned.workspaceId}`), { events: ['meta.chat'] });
    const keys = ['old-done', 'old-failed', 'old-pending', 'recent-done'];
    const ids = new Map<string, string>();
    for (const key of keys) {
      const [id] = await inTransaction(s.t.dataSource, (tx) => outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: '{}', sourceKey: key }));
      ids.set(key, id!);
    }
    const finish = (key: string, status: string) =>
      s.t.dataSource.query(`UPDATE webhook_deliveries SET status = $2, completed_at = now() WHERE id = $1`, [ids.get(key), status]);
    await finish('old-done', 'delivered');
    await finish('old-failed', 'failed');
    await finish('recent-done', 'delivered');
    // Unfinished: waiting for its media (held), as long as that takes.
    await s.t.dataSource.query(`UPDATE webhook_deliveries SET status = 'held' WHERE id = $1`, [ids.get('old-pending')]);
    await s.t.dataSource.query(`UPDATE webhook_events SET created_at = now() - interval '31 days' WHERE workspace_id = $1 AND source_key LIKE 'old-%'`, [
      owned.workspaceId,
    ]);
    const pruned = await s.t.app.get(OutboxRepository).prune(RETENTION_DAYS, 1000);
    expect(pruned).toBeGreaterThanOrEqual(2);
    const left: { source_key: string; deliveries: number }[] = await s.t.dataSource.query(
      `SELECT e.source_key, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries
         FROM webhook_events e WHERE e.workspace_id = $1 ORDER BY e.source_key`,
      [owned.workspaceId],
    );
    expect(left).toEqual([
      { source_key: 'old-pending', deliveries: 1 },
      { source_key: 'recent-done', deliveries: 1 },
    ]);
    expect(await s.t.dataSource.query(`SELECT 1 FROM webhook_deliveries WHERE id = ANY($1::uuid[])`, [[ids.get('old-done'), ids.get('old-failed')]])).toEqual(
      [],
    );
  });
});
