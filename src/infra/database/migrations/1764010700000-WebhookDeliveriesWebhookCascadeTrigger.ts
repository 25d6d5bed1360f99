import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The foreign key from webhook_deliveries.webhook_id checked every delivery written (a lookup
 * and a row lock on the webhook per message on the ingest path), and its ON DELETE CASCADE found
 * a deleted webhook's deliveries by scanning the whole table (no index leads with webhook_id but
 * the pending-only one): 125 ms at a million deliveries, while every ingest transaction with a
 * message for that workspace waited on the webhook's row lock. The writers of deliveries now
 * lock the webhooks they read (FOR KEY SHARE, once per statement), which keeps a delivery from
 * outliving a webhook deleted meanwhile as the key did; a statement-level trigger deletes a
 * deleted webhook's deliveries through the workspace's index (webhook_deliveries_workspace_idx),
 * and TRUNCATE of the webhooks truncates the deliveries, as TRUNCATE … CASCADE did. The trigger
 * matches by arrays, not a join: plpgsql keeps one plan per connection, and a join's plan made
 * for one deleted webhook (or for ten) scans the wrong way for the other case. Like the other
 * cascade triggers, it relies on READ COMMITTED (the service's level): a DELETE of a webhook in
 * a REPEATABLE READ transaction that waited for a writer would not see the writer's deliveries.
 */
export class WebhookDeliveriesWebhookCascadeTrigger1764010700000 implements MigrationInterface {
  name = 'WebhookDeliveriesWebhookCascadeTrigger1764010700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2"`);
    await queryRunner.query(`
            CREATE FUNCTION webhooks_delete_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              DELETE FROM webhook_deliveries
               WHERE workspace_id = ANY(ARRAY(SELECT DISTINCT workspace_id FROM gone)) AND webhook_id = ANY(ARRAY(SELECT id FROM gone));
              RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE TRIGGER webhooks_delete_deliveries AFTER DELETE ON webhooks
              REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION webhooks_delete_deliveries()`);
    await queryRunner.query(`
            CREATE FUNCTION webhooks_truncate_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              TRUNCATE webhook_deliveries CASCADE;
              RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE TRIGGER webhooks_truncate_deliveries AFTER TRUNCATE ON webhooks
              FOR EACH STATEMENT EXECUTE FUNCTION webhooks_truncate_deliveries()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhooks_truncate_deliveries ON webhooks`);
    await queryRunner.query(`DROP FUNCTION webhooks_truncate_deliveries()`);
    await queryRunner.query(`DROP TRIGGER webhooks_delete_deliveries ON webhooks`);
    await queryRunner.query(`DROP FUNCTION webhooks_delete_deliveries()`);
    await queryRunner.query(`DELETE FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id)`);
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
