import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every delivery written paid an entry in webhook_deliveries_due_idx (next_attempt_at of pending
 * deliveries), read only by the outbox sweeper's look for overdue endpoints. The sweeper now asks
 * each endpoint's index (webhook_deliveries_endpoint_due_idx: webhook_id, next_attempt_at), one
 * probe per webhook, which also stays cheap with a backlog of millions, where the old query read
 * every overdue row to keep one per endpoint. One index entry fewer per message on the ingest
 * path (docs/inbox.md).
 */
export class WebhookDeliveriesDropDueIndex1764010600000 implements MigrationInterface {
  name = 'WebhookDeliveriesDropDueIndex1764010600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "webhook_deliveries_due_idx"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending'`);
  }
}
