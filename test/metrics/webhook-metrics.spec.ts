import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { scanMessage } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, eventually, ownedWorkspace, Receiver } from '../webhooks/webhook-support.js';
import { sample } from './prometheus-text.js';

describe('metrics: webhook delivery attempts and failures', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  const scrape = async (): Promise<string> => (await s.t.http().get('/metrics')).text;
  const attempts = async (kind: string, outcome: string): Promise<number> =>
    sample(await scrape(), 'inbox_webhook_delivery_attempts_total', { kind, outcome }) ?? 0;

  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('counts scheduled attempts by outcome: retried after a 503, then delivered; and test events', async () => {
    const owned = await ownedWorkspace(s.t);
    receiver.reply = (_request, index) => (index === 0 ? { status: 503 } : { status: 200 });
    await addWebhook(owned, receiver.url('/flaky'));
    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages: [scanMessage({ content: 'counted' })] });
    await receiver.waitFor(2, '/flaky');
    await eventually('both attempts counted', async () => (await attempts('scheduled', 'delivered')) === 1);
    expect(await attempts('scheduled', 'retrying')).toBe(1);
    expect(await attempts('scheduled', 'failed')).toBe(0);

    receiver.reply = () => ({ status: 500 });
    const webhookId = await addWebhook(owned, receiver.url('/test-target'));
    expect((await owned.as('post', `/api/webhooks/${webhookId}/test`)).status).toBe(200);
    expect(await attempts('test', 'failed')).toBe(1);
    expect(sample(await scrape(), 'inbox_webhook_delivery_attempt_duration_seconds_count', { outcome: 'failed' })).toBe(1);
  });
});
