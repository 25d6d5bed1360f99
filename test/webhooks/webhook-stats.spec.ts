import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { scanMessage } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, eventually, logOf, ownedWorkspace, type Owned, Receiver } from './webhook-support.js';

/** Issue 34, item 7: test events are probes, not traffic; the delivery figures leave them out. */
describe('webhook figures (GET /api/webhooks/stats) without test events', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  /** Per path: the status the receiver answers. */
  const answers = new Map<string, number>();

  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
    receiver.reply = (request) => ({ status: answers.get(request.path) ?? 200 });
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  const stats = async (owned: Owned): Promise<Record<string, number>> => (await owned.as('get', '/api/webhooks/stats')).body as Record<string, number>;
  const finished = async (owned: Owned): Promise<string[]> =>
    (
      (await s.t.dataSource.query(`SELECT status FROM webhook_deliveries WHERE workspace_id = $1 AND completed_at IS NOT NULL ORDER BY status`, [
        owned.workspaceId,
      ])) as { status: string }[]
    ).map((row) => row.status);

  it('counts delivered and failed traffic, never test events (sent, failed, or sent again), which stay in the log', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/stats-${owned.workspaceId}`;
    const webhookId = await addWebhook(owned, receiver.url(path));

    // Setting the endpoint up: two failed tests, then one that works, then a replay of a failed one.
    answers.set(path, 500);
    const failedTests = [await owned.as('post', `/api/webhooks/${webhookId}/test`), await owned.as('post', `/api/webhooks/${webhookId}/test`)];
    expect(failedTests.map((r) => [r.status, r.body.status])).toEqual([
      [200, 'failed'],
      [200, 'failed'],
    ]);
    answers.set(path, 200);
    expect((await owned.as('post', `/api/webhooks/${webhookId}/test`)).body.status).toBe('delivered');
    const replay = await owned.as('post', `/api/webhooks/${webhookId}/deliveries/${failedTests[0]!.body.delivery_id}/retry`);
    expect(replay.body.status).toBe('delivered');
    expect(await stats(owned)).toEqual({ pending: 0, held: 0, delivered: 0, failed: 0, oldest_pending_age_seconds: 0, window_hours: 24 });
    expect((await logOf(owned, webhookId)).filter((a) => a.event === 'webhook.test')).toHaveLength(4);

    // Traffic: one message delivered, then one refused for good (400 is final).
    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages: [scanMessage()] });
    await eventually('the delivered message', async () => (await finished(owned)).filter((x) => x === 'delivered').length === 3);
    answers.set(path, 400);
    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages: [scanMessage()] });
    await eventually('the refused message', async () => (await finished(owned)).filter((x) => x === 'failed').length === 2);

    expect(await stats(owned)).toEqual({ pending: 0, held: 0, delivered: 1, failed: 1, oldest_pending_age_seconds: 0, window_hours: 24 });
  });
});
