import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Claims of the delivery worker: a job sends its own delivery and up to a batch of other due
 * deliveries of the same endpoint, each claimed (`claimed_until`) so no other job sends it
 * meanwhile; the partial index finds an endpoint's due deliveries in order.
 */
export class WebhookDeliveryClaims1764008000000 implements MigrationInterface {
  name = 'WebhookDeliveryClaims1764008000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD "claimed_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries"  ("webhook_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_endpoint_due_idx"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "claimed_until"`);
  }
}
