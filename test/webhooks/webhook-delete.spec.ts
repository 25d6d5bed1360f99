import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { inTransaction } from '../../src/infra/database/sql-transaction.js';
import { DeliveryRepository } from '../../src/modules/webhooks/delivery/delivery.repository.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { addWebhook, createWebhookTestApp, deliveriesLeftAfter, type Owned, ownedWorkspace, Receiver } from './webhook-support.js';

/**
 * Deliveries have no foreign key to their webhook (its check locked the webhook row per delivery
 * written, its cascade scanned the whole table): the writers lock the webhooks they read, and a
 * trigger deletes a webhook's deliveries with it. What the key guaranteed must still hold: no
 * delivery outlives its webhook, whatever runs at the same time.
 */
describe('deleting a webhook', () => {
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

  const count = async (sql: string, params: unknown[]): Promise<number> => ((await s.t.dataSource.query(sql, params)) as { n: number }[])[0]!.n;
  const deliveriesOf = (webhookId: string): Promise<number> => count(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1`, [webhookId]);
  const metaEvent = (sourceKey: string) => ({ event: 'meta.chat' as const, body: '{}', sourceKey });
  const remove = (owned: Owned, webhookId: string) => owned.as('delete', `/api/webhooks/${webhookId}`);

  /**
   * Runs `deletion` while a transaction holds an uncommitted delivery for the workspace's webhook
   * (as a group commit does between its outbox statement and its COMMIT): the deletion must wait
   * for that transaction. Answers the writer's due delivery ids and the deletion's result.
   */
  async function deleteDuringWrite<T>(owned: Owned, sourceKey: string, deletion: () => Promise<T>): Promise<{ due: string[][]; deleted: T }> {
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const writer = inTransaction(s.t.dataSource, async (tx) => {
      const due = await outbox.writeMany(tx, [{ workspaceId: owned.workspaceId, ...metaEvent(sourceKey), body: '{}' }]);
      written();
      await committing;
      return due;
    });
    await wrote;
    let finished = false;
    const deleting = deletion().then((result) => {
      finished = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const finishedBeforeCommit = finished;
    commit();
    const result = { due: await writer, deleted: await deleting };
    // Had the deletion not waited, the delivery the writer has just committed would have no webhook.
    expect(finishedBeforeCommit).toBe(false);
    return result;
  }

  it('takes its deliveries and their attempts along, and nothing of another webhook; TRUNCATE takes them all', async () => {
    const [owned, other] = await Promise.all([ownedWorkspace(s.t), ownedWorkspace(s.t)]);
    const gone = await addWebhook(owned, receiver.url(`/gone-${owned.workspaceId}`), { events: ['meta.chat'] });
    const sibling = await addWebhook(owned, receiver.url(`/sibling-${owned.workspaceId}`), { events: ['meta.chat'] });
    const elsewhere = await addWebhook(other, receiver.url(`/elsewhere-${other.workspaceId}`), { events: ['meta.chat'] });
    for (const workspace of [owned, other]) {
      for (const key of ['a', 'b']) await inTransaction(s.t.dataSource, (tx) => outbox.write(workspace.workspaceId, tx, metaEvent(key)));
    }
    const [delivery] = (await s.t.dataSource.query(`SELECT id FROM webhook_deliveries WHERE webhook_id = $1 LIMIT 1`, [gone])) as { id: string }[];
    await s.t.dataSource.query(
      `INSERT INTO webhook_attempts (workspace_id, webhook_id, delivery_id, attempt, status, duration_ms) VALUES ($1, $2, $3, 1, 'failed', 5)`,
      [owned.workspaceId, gone, delivery!.id],
    );
    expect([await deliveriesOf(gone), await deliveriesOf(sibling), await deliveriesOf(elsewhere)]).toEqual([2, 2, 2]);

    expect((await remove(owned, gone)).status).toBe(200);
    expect([await deliveriesOf(gone), await deliveriesOf(sibling), await deliveriesOf(elsewhere)]).toEqual([0, 2, 2]);
    expect(await count(`SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = $1`, [delivery!.id])).toBe(0);

    // As TRUNCATE … CASCADE did (in a transaction rolled back).
    expect(await deliveriesLeftAfter(s.t, 'TRUNCATE webhooks CASCADE')).toBe(0);
  });

  it('waits for a transaction writing deliveries for it, then takes them along (a group commit in flight)', async () => {
    const owned = await ownedWorkspace(s.t);
    const webhookId = await addWebhook(owned, receiver.url(`/racing-${owned.workspaceId}`), { events: ['meta.chat'] });
    const { due, deleted } = await deleteDuringWrite(owned, 'in-flight', () => remove(owned, webhookId));
    expect(due).toEqual([[expect.any(String)]]);
    expect(deleted.status).toBe(200);
    expect(await deliveriesOf(webhookId)).toBe(0);
  });

  it("waits for a writer in the workspace, then takes the workspace's events and deliveries along (the workspace deleted)", async () => {
    const owned = await ownedWorkspace(s.t);
    const webhookId = await addWebhook(owned, receiver.url(`/workspace-${owned.workspaceId}`), { events: ['meta.chat'] });
    await deleteDuringWrite(owned, 'workspace-going', () => s.t.dataSource.query(`DELETE FROM workspaces WHERE id = $1`, [owned.workspaceId]));
    expect(await deliveriesOf(webhookId)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1`, [owned.workspaceId])).toBe(0);
  });

  it('leaves nothing to a writer that reads it while it is being deleted', async () => {
    const owned = await ownedWorkspace(s.t);
    const webhookId = await addWebhook(owned, receiver.url(`/deleting-${owned.workspaceId}`), { events: ['meta.chat'] });
    const runner = s.t.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`DELETE FROM webhooks WHERE id = $1`, [webhookId]);
      const writing = inTransaction(s.t.dataSource, (tx) => outbox.write(owned.workspaceId, tx, metaEvent('while-deleting')));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await runner.commitTransaction();
      // The writer waited for the delete and found no webhook: no event, no delivery.
      expect(await writing).toEqual([]);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await deliveriesOf(webhookId)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1`, [owned.workspaceId])).toBe(0);
  });

  it('records no test delivery for a webhook deleted while the test was being sent', async () => {
    const owned = await ownedWorkspace(s.t);
    const webhookId = await addWebhook(owned, receiver.url(`/tested-${owned.workspaceId}`), { events: ['meta.chat'] });
    expect((await remove(owned, webhookId)).status).toBe(200);
    const recorded = await s.t.app.get(DeliveryRepository).recordTest(
      owned.workspaceId,
      webhookId,
      { id: crypto.randomUUID(), event: 'webhook.test', body: Buffer.from('{}') },
      {
        status: 'delivered',
        responseStatus: 200,
        error: null,
        durationMs: 3,
        startedAt: new Date(),
      },
    );
    expect(recorded).toBeNull();
    expect(await deliveriesOf(webhookId)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1`, [owned.workspaceId])).toBe(0);
  });
});
