import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { OutboxRepository } from '../../src/modules/webhooks/outbox/outbox.repository.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, ownedWorkspace } from './webhook-support.js';

/**
 * What the sweeper wakes: per endpoint, its earliest pending delivery overdue by more than the
 * grace and claimed by no drain. Probed endpoint by endpoint (there is no index over every
 * pending delivery). The app's own sweeper is slowed down so it cannot touch these rows meanwhile,
 * and nothing is queued, so no drain claims them either.
 */
describe('OutboxRepository.overdue: the endpoints the sweeper wakes', () => {
  let s: InboundTestApp;
  beforeAll(async () => {
    s = await createWebhookTestApp({ WEBHOOK_SWEEP_INTERVAL_MS: '3600000' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers one delivery per endpoint: the earliest overdue one no drain has claimed', async () => {
    const owned = await ownedWorkspace(s.t);
    const late = await addWebhook(owned, 'http://127.0.0.1:9/late', { events: ['meta.chat'] });
    const claimed = await addWebhook(owned, 'http://127.0.0.1:9/claimed', { events: ['meta.chat'] });
    const early = await addWebhook(owned, 'http://127.0.0.1:9/not-yet', { events: ['meta.chat'] });
    const outbox = s.t.app.get(WebhookOutbox);
    for (const key of ['one', 'two', 'three']) {
      await inTransaction(s.t.dataSource, (tx) => outbox.write(owned.workspaceId, tx, { event: 'meta.chat', body: '{}', sourceKey: key }));
    }
    const rows = async (webhookId: string): Promise<string[]> => {
      const found: { id: string }[] = await s.t.dataSource.query(
        `SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.webhook_id = $1 ORDER BY e.source_key`,
        [webhookId],
      );
      return found.map((row) => row.id);
    };
    const [lateOne, lateThree, lateTwo] = await rows(late);
    const [claimedOne, claimedThree, claimedTwo] = await rows(claimed);
    // Due long ago, in the order one, two, three ('one' < 'three' < 'two' by key).
    const dueAgo = async (id: string, minutes: number): Promise<void> => {
      await s.t.dataSource.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - make_interval(mins => $2) WHERE id = $1`, [id, minutes]);
    };
    const ages = [
      [lateOne, 30],
      [lateTwo, 20],
      [lateThree, 10],
      [claimedOne, 30],
      [claimedTwo, 20],
      [claimedThree, 10],
    ] as const;
    for (const [id, minutes] of ages) await dueAgo(id!, minutes);
    await s.t.dataSource.query(`UPDATE webhook_deliveries SET claimed_until = now() + interval '1 minute' WHERE id = $1`, [claimedOne]);
    await s.t.dataSource.query(`UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE webhook_id = $1`, [early]);

    const found = (await s.t.app.get(OutboxRepository).overdue(1_000, 1_000)).filter((row) => row.workspaceId === owned.workspaceId);
    expect(found.sort((a, b) => a.webhookId.localeCompare(b.webhookId))).toEqual(
      [
        { id: lateOne, webhookId: late, workspaceId: owned.workspaceId },
        { id: claimedTwo, webhookId: claimed, workspaceId: owned.workspaceId },
      ].sort((a, b) => a.webhookId.localeCompare(b.webhookId)),
    );
    // A claim that has run out counts as none.
    await s.t.dataSource.query(`UPDATE webhook_deliveries SET claimed_until = now() - interval '1 second' WHERE id = $1`, [claimedOne]);
    const again = (await s.t.app.get(OutboxRepository).overdue(1_000, 1_000)).filter((row) => row.webhookId === claimed);
    expect(again.map((row) => row.id)).toEqual([claimedOne]);
    // At most `limit` endpoints.
    expect(await s.t.app.get(OutboxRepository).overdue(1_000, 1)).toHaveLength(1);
  });
});
