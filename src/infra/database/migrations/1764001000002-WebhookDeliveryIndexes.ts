import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One index fewer on the outbox's hottest insert: the unique (event, webhook) index, event
 * first, also serves what the plain event index did (joins and cascades from an event).
 */
export class WebhookDeliveryIndexes1764001000002 implements MigrationInterface {
  name = 'WebhookDeliveryIndexes1764001000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE UNIQUE INDEX "webhook_deliveries_event_webhook_uq" ON "webhook_deliveries"  ("event_id", "webhook_id") `);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_webhook_event_uq"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_event_idx"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_event_webhook_uq"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "webhook_deliveries_webhook_event_uq" ON "webhook_deliveries" USING btree ("webhook_id", "event_id") `);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id") `);
  }
}
