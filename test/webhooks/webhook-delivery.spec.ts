import { createHmac, randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { scanMessage } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, eventually, json, logOf, ownedWorkspace, type Owned, Receiver, type Reply, secretOf } from './webhook-support.js';

describe('webhook delivery: retries, final answers, log, replay', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  const replies = new Map<string, (index: number) => Reply>();

  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
    receiver.reply = (request) => {
      const forPath = replies.get(request.path);
      return forPath ? forPath(receiver.at(request.path).length - 1) : { status: 200 };
    };
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  /** A workspace with one webhook at its own path, answering `reply` (by attempt index). */
  async function endpoint(reply: (index: number) => Reply = () => ({ status: 200 })): Promise<{ owned: Owned; webhookId: string; path: string }> {
    const owned = await ownedWorkspace(s.t);
    const path = `/hook-${owned.workspaceId}`;
    replies.set(path, reply);
    return { owned, webhookId: await addWebhook(owned, receiver.url(path)), path };
  }

  async function inbound(owned: Owned): Promise<string> {
    const message = scanMessage();
    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages: [message] });
    return message.externalId;
  }

  const deliveryOf = async (owned: Owned): Promise<{ id: string; status: string; attempts: number; last_error: string | null }[]> =>
    s.t.dataSource.query(`SELECT id, status, attempts, last_error FROM webhook_deliveries WHERE workspace_id = $1 ORDER BY created_at`, [owned.workspaceId]);
  const settled = async (owned: Owned, status: string): Promise<void> => {
    await eventually(`a ${status} delivery`, async () => (await deliveryOf(owned)).some((d) => d.status === status));
  };
  const webhookRow = async (owned: Owned): Promise<Record<string, unknown>> => ((await owned.as('get', '/api/webhooks')).body as Record<string, unknown>[])[0]!;
  const quiet = (ms = 400): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it('retries 500, 500 and delivers on 200: three attempts, one webhook-id, the same signed bytes, delivered once', async () => {
    const { owned, webhookId, path } = await endpoint((i) => ({ status: i < 2 ? 500 : 200 }));
    const externalId = await inbound(owned);
    const requests = await receiver.waitFor(3, path);
    await settled(owned, 'delivered');
    await quiet();
    expect(receiver.at(path)).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.body.toString('hex'))).size).toBe(1);
    expect(json(requests[0]!).chat_message_id).toBe(externalId);
    const secret = await secretOf(owned);
    for (const request of requests) {
      expect(request.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
      expect(() => new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    }
    const [delivery] = await deliveryOf(owned);
    expect(delivery).toMatchObject({ id: requests[0]!.headers['webhook-id'], status: 'delivered', attempts: 3 });

    const log = await logOf(owned, webhookId);
    expect(log.map((a) => [a.attempt, a.status, a.response_status, a.error])).toEqual([
      [3, 'delivered', 200, null],
      [2, 'retrying', 500, 'HTTP 500'],
      [1, 'retrying', 500, 'HTTP 500'],
    ]);
    for (const attempt of log) {
      expect(attempt).toMatchObject({ delivery_id: delivery!.id, event: 'scan.chat' });
      expect(typeof attempt.duration_ms).toBe('number');
      expect(Date.parse(attempt.created_at as string)).not.toBeNaN();
    }
    expect(log[0]!.delivered_at).toEqual(expect.any(String));
    expect(log[1]!.delivered_at).toBeNull();
  });

  it('waits as long as a 429 says in Retry-After before the next attempt', async () => {
    const { owned, path } = await endpoint((i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '2' } } : { status: 200 }));
    await inbound(owned);
    const [first, second] = await receiver.waitFor(2, path);
    // The schedule alone would have retried after ~100 ms.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900);
    await settled(owned, 'delivered');
  });

  it('takes 410 Gone as final and disables the endpoint, with the reason in the list; nothing more is sent to it', async () => {
    const { owned, webhookId, path } = await endpoint(() => ({ status: 410 }));
    await inbound(owned);
    await settled(owned, 'failed');
    expect(await webhookRow(owned)).toMatchObject({ id: webhookId, enabled: false, disabled_reason: 'the endpoint answered 410 Gone' });
    await inbound(owned);
    await quiet();
    expect(receiver.at(path)).toHaveLength(1);
    expect((await logOf(owned, webhookId)).map((a) => [a.status, a.response_status])).toEqual([['failed', 410]]);

    // Enabling it again clears the reason, and events flow again.
    replies.set(path, () => ({ status: 200 }));
    const res = await owned.as('patch', `/api/webhooks/${webhookId}`).send({ enabled: true });
    expect(res.body).toMatchObject({ enabled: true, disabled_reason: null });
    await inbound(owned);
    await receiver.waitFor(2, path);
  });

  it('disabling an endpoint fails what waits for it, and the log says so: an entry per delivery, retriable from there', async () => {
    // A 429 asking for a minute: the delivery waits, its one attempt logged as retrying.
    const { owned, webhookId, path } = await endpoint(() => ({ status: 429, headers: { 'Retry-After': '60' } }));
    await inbound(owned);
    await receiver.waitFor(1, path);
    await eventually('the attempt logged', async () => (await logOf(owned, webhookId)).length === 1);
    expect((await logOf(owned, webhookId)).map((a) => a.status)).toEqual(['retrying']);

    expect((await owned.as('patch', `/api/webhooks/${webhookId}`).send({ enabled: false })).status).toBe(200);
    const [delivery] = await deliveryOf(owned);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_error: 'webhook disabled' });
    const log = await logOf(owned, webhookId);
    expect(log.map((a) => [a.delivery_id, a.status, a.attempt, a.response_status, a.error, a.duration_ms])).toEqual([
      [delivery!.id, 'failed', 1, null, 'webhook disabled', 0],
      [delivery!.id, 'retrying', 1, 429, 'HTTP 429', expect.any(Number)],
    ]);
    expect(log[0]!.delivered_at).toBeNull();

    // Back on, the delivery is sent again from its log entry.
    replies.set(path, () => ({ status: 200 }));
    expect((await owned.as('patch', `/api/webhooks/${webhookId}`).send({ enabled: true })).status).toBe(200);
    const retried = await owned.as('post', `/api/webhooks/${webhookId}/deliveries/${log[0]!.delivery_id as string}/retry`);
    expect(retried.body).toMatchObject({ status: 'delivered', response_status: 200 });
    expect((await deliveryOf(owned))[0]).toMatchObject({ status: 'delivered' });
  });

  it('counts a 2xx when its status line arrives: an answer whose body never ends is not sent again', async () => {
    const { owned, webhookId, path } = await endpoint(() => ({ status: 200, body: 'accepted, now streaming', endless: true }));
    await inbound(owned);
    await settled(owned, 'delivered');
    await quiet();
    expect(receiver.at(path)).toHaveLength(1);
    expect((await logOf(owned, webhookId)).map((a) => [a.status, a.response_status, a.error])).toEqual([['delivered', 200, null]]);
    receiver.dropConnections();
  });

  it('takes other 4xx answers as final for the delivery, without disabling the endpoint', async () => {
    const { owned, path } = await endpoint(() => ({ status: 400 }));
    await inbound(owned);
    await settled(owned, 'failed');
    await quiet();
    expect(receiver.at(path)).toHaveLength(1);
    expect(await deliveryOf(owned)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'HTTP 400' })]);
    expect(await webhookRow(owned)).toMatchObject({ enabled: true, disabled_reason: null, failing_since: expect.any(String) });
  });

  it('retries network errors until the schedule is used up (three retries), then fails the delivery', async () => {
    const { owned, webhookId, path } = await endpoint(() => 'destroy');
    await inbound(owned);
    await settled(owned, 'failed');
    expect(receiver.at(path)).toHaveLength(4);
    expect((await logOf(owned, webhookId)).map((a) => a.status)).toEqual(['failed', 'retrying', 'retrying', 'retrying']);
    expect((await logOf(owned, webhookId))[0]!.error).toMatch(/^network error/);
  });

  it('never follows a redirect', async () => {
    const { owned, path } = await endpoint(() => ({ status: 302, headers: { Location: '/elsewhere' } }));
    await inbound(owned);
    await settled(owned, 'failed');
    expect(receiver.at('/elsewhere')).toEqual([]);
    expect((await deliveryOf(owned))[0]!.last_error).toBe('redirect not followed (HTTP 302 to /elsewhere)');
    expect(receiver.at(path)).toHaveLength(1);
  });

  it('disables an endpoint whose every attempt has failed for 3 days; a success ends the streak', async () => {
    const { owned, webhookId, path } = await endpoint(() => ({ status: 503 }));
    await s.t.dataSource.query(`UPDATE webhooks SET failing_since = now() - interval '3 days 1 minute' WHERE id = $1`, [webhookId]);
    await inbound(owned);
    await eventually('the endpoint disabled', async () => (await webhookRow(owned)).enabled === false);
    expect(await webhookRow(owned)).toMatchObject({ enabled: false, disabled_reason: 'every delivery attempt failed for 3 days' });
    expect(await deliveryOf(owned)).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(receiver.at(path)).toHaveLength(1);

    const healthy = await endpoint(() => ({ status: 200 }));
    await s.t.dataSource.query(`UPDATE webhooks SET failing_since = now() - interval '2 days' WHERE id = $1`, [healthy.webhookId]);
    await inbound(healthy.owned);
    await settled(healthy.owned, 'delivered');
    expect(await webhookRow(healthy.owned)).toMatchObject({ enabled: true, failing_since: null });
  });

  it('replays a delivery with the same webhook-id and answers the attempt; unknown ids are 404', async () => {
    const { owned, webhookId, path } = await endpoint(() => ({ status: 404 }));
    await inbound(owned);
    await settled(owned, 'failed');
    const [delivery] = await deliveryOf(owned);
    replies.set(path, () => ({ status: 204 }));
    const res = await owned.as('post', `/api/webhooks/${webhookId}/deliveries/${delivery!.id}/retry`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivery_id: delivery!.id, event: 'scan.chat', status: 'delivered', attempt: 2, response_status: 204, error: null });
    const [first, again] = receiver.at(path);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body.equals(first!.body)).toBe(true);
    expect((await deliveryOf(owned))[0]).toMatchObject({ status: 'delivered', attempts: 2 });

    // Failing again, a replay answers the failed attempt (200: the replay itself worked).
    replies.set(path, () => ({ status: 500 }));
    const failed = await owned.as('post', `/api/webhooks/${webhookId}/deliveries/${delivery!.id}/retry`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', attempt: 3, response_status: 500, error: 'HTTP 500' });

    const other = await endpoint();
    expect((await owned.as('post', `/api/webhooks/${other.webhookId}/deliveries/${delivery!.id}/retry`)).body).toEqual({ error: 'webhook not found' });
    const mine = await addWebhook(owned, receiver.url(`/second-${owned.workspaceId}`));
    const wrong = await owned.as('post', `/api/webhooks/${mine}/deliveries/${delivery!.id}/retry`);
    expect([wrong.status, wrong.body]).toEqual([404, { error: 'delivery not found' }]);
    expect((await owned.as('post', `/api/webhooks/${webhookId}/deliveries/not-a-uuid/retry`)).body).toEqual({ error: 'invalid delivery id' });
  });

  it('sends a signed test event on request and answers the attempt, delivered or not', async () => {
    const { owned, webhookId, path } = await endpoint(() => ({ status: 200 }));
    const res = await owned.as('post', `/api/webhooks/${webhookId}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event: 'webhook.test', status: 'delivered', attempt: 1, response_status: 200 });
    const [request] = receiver.at(path);
    expect(request!.headers['x-svc-event']).toBe('webhook.test');
    expect(request!.headers['webhook-id']).toBe(res.body.delivery_id);
    const secret = await secretOf(owned);
    expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toEqual({
      event: 'webhook.test',
      workspace_id: owned.workspaceId,
      webhook_id: webhookId,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });

    replies.set(path, () => ({ status: 503 }));
    const failed = await owned.as('post', `/api/webhooks/${webhookId}/test`);
    expect(failed.body).toMatchObject({ status: 'failed', response_status: 503, error: 'HTTP 503' });
    expect((await logOf(owned, webhookId)).map((a) => a.status)).toEqual(['failed', 'delivered']);
    await quiet();
    // A test is sent once: never retried by the worker.
    expect(receiver.at(path)).toHaveLength(2);
  });

  it('reports the outbox figures of the workspace', async () => {
    const { owned, path } = await endpoint((i) => (i === 0 ? { status: 400 } : 'hang'));
    expect((await owned.as('get', '/api/webhooks/stats')).body).toEqual({
      pending: 0,
      held: 0,
      delivered: 0,
      failed: 0,
      oldest_pending_age_seconds: 0,
      window_hours: 24,
    });
    await inbound(owned);
    await settled(owned, 'failed');
    await inbound(owned);
    await receiver.waitFor(2, path);
    await s.t.dataSource.query(`UPDATE webhook_deliveries SET created_at = now() - interval '90 seconds' WHERE workspace_id = $1 AND status = 'pending'`, [
      owned.workspaceId,
    ]);
    const stats = (await owned.as('get', '/api/webhooks/stats')).body as Record<string, number>;
    expect(stats).toMatchObject({ pending: 1, held: 0, delivered: 0, failed: 1 });
    expect(stats.oldest_pending_age_seconds).toBeGreaterThanOrEqual(90);
    receiver.dropConnections();
  });

  it('counts waiting (pending and held), delivered and failed deliveries across the webhooks of the workspace, finished ones only within the window', async () => {
    const { owned, path } = await endpoint((i) => (i === 0 ? { status: 200 } : 'hang'));
    const refusing = `/refuses-${owned.workspaceId}`;
    replies.set(refusing, () => ({ status: 400 }));
    await addWebhook(owned, receiver.url(refusing));
    await inbound(owned);
    await eventually('one delivered and one failed', async () => {
      const statuses = (await deliveryOf(owned)).map((d) => d.status).sort();
      return statuses.join() === 'delivered,failed';
    });
    // A message whose media is still downloading: its deliveries (one per webhook) are held.
    await inTransaction(s.t.dataSource, (tx) =>
      s.t.app.get(WebhookOutbox).write(owned.workspaceId, tx, { event: 'scan.chat', body: '{}', sourceKey: null, hold: true, messageId: randomUUID() }),
    );
    await inbound(owned);
    await receiver.waitFor(2, path);
    await eventually('a second failed delivery', async () => (await deliveryOf(owned)).filter((d) => d.status === 'failed').length === 2);
    // One failure finished before the window: not counted.
    await s.t.dataSource.query(
      `UPDATE webhook_deliveries SET completed_at = now() - interval '30 hours' WHERE id = (SELECT id FROM webhook_deliveries WHERE workspace_id = $1 AND status = 'failed' LIMIT 1)`,
      [owned.workspaceId],
    );
    // Another workspace's waiting delivery is not this one's.
    const stranger = await endpoint(() => 'hang');
    await inbound(stranger.owned);
    await receiver.waitFor(1, stranger.path);
    expect((await owned.as('get', '/api/webhooks/stats')).body).toMatchObject({ pending: 3, held: 2, delivered: 1, failed: 1, window_hours: 24 });
    receiver.dropConnections();
  });

  it('delivers through the sweeper when the job was lost between commit and queueing (Redis flushed)', async () => {
    const { owned, path } = await endpoint();
    const queue = s.t.app.get<Queue>(getQueueToken(QueueName.WebhookDelivery));
    // The commit happened; the jobs queued after it are gone (a flush, a failover) before anything ran.
    const addBulk = queue.addBulk.bind(queue);
    queue.addBulk = async () => [];
    try {
      await inbound(owned);
    } finally {
      queue.addBulk = addBulk;
    }
    const [delivery] = await deliveryOf(owned);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await queue.getJob(delivery!.id)).toBeUndefined();
    const [request] = await receiver.waitFor(1, path);
    await settled(owned, 'delivered');
    expect(request!.headers['webhook-id']).toBe((await deliveryOf(owned))[0]!.id);
  });

  it('signs with the new secret after a rotation, and for a day also with the previous one (webhook-signature only)', async () => {
    const { owned, path } = await endpoint();
    const before = await secretOf(owned);
    const rotated = await owned.as('post', '/api/webhooks/secret/rotate');
    expect(rotated.status).toBe(200);
    const after = (rotated.body as { secret: string }).secret;
    expect(after).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(after).not.toBe(before);
    expect(await secretOf(owned)).toBe(after);
    await inbound(owned);
    const [request] = await receiver.waitFor(1, path);
    expect(request!.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', after).update(request!.body).digest('hex')}`);
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [after, before]) expect(() => new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).not.toThrow();
  });
});
