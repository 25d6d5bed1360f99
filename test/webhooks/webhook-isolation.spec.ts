import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { scanMessage } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, eventually, ownedWorkspace, Receiver } from './webhook-support.js';

// Runs in a file of its own, so its waits overlap with the other files instead of adding to them.
describe('webhook delivery: a dead endpoint does not hold up anyone else', () => {
  let s: InboundTestApp;
  let dead: Receiver;
  let alive: Receiver;
  beforeAll(async () => {
    // Four attempts at once in this worker, two of them at most to one endpoint; the real 10 s timeout.
    [s, dead, alive] = await Promise.all([
      createWebhookTestApp({ WEBHOOK_CONCURRENCY: '4', WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_TIMEOUT_MS: '10000' }),
      Receiver.start(),
      Receiver.start(),
    ]);
    dead.reply = () => 'hang';
  });
  afterAll(async () => {
    await dead?.close();
    await alive?.close();
    await s?.close();
  });

  it('delivers another workspace’s event at once while a dead endpoint holds its requests open', async () => {
    const slow = await ownedWorkspace(s.t);
    const other = await ownedWorkspace(s.t);
    await addWebhook(slow, dead.url());
    await addWebhook(other, alive.url());
    // More due deliveries to the dead endpoint than the worker has slots.
    await s.handler.handle(slow.workspaceId, { type: 'messages', kind: 'notify', messages: Array.from({ length: 8 }, () => scanMessage()) });
    await dead.waitFor(2);

    const started = Date.now();
    const message = scanMessage();
    await s.handler.handle(other.workspaceId, { type: 'messages', kind: 'notify', messages: [message] });
    const [request] = await alive.waitFor(1, undefined, 9000);
    const waited = Date.now() - started;
    expect(JSON.parse(request!.body.toString()).chat_message_id).toBe(message.externalId);
    // None of the dead endpoint's attempts has ended yet (each waits for its 10 s timeout), and
    // it never held more than its two slots.
    const ended: { n: number }[] = await s.t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_attempts WHERE workspace_id = $1`, [slow.workspaceId]);
    expect(ended[0]!.n).toBe(0);
    expect(dead.received).toHaveLength(2);
    expect(waited).toBeLessThan(9000);
    await eventually('the delivery recorded', async () => {
      const rows: { status: string }[] = await s.t.dataSource.query(`SELECT status FROM webhook_deliveries WHERE workspace_id = $1`, [other.workspaceId]);
      return rows[0]?.status === 'delivered';
    });
  });
});
