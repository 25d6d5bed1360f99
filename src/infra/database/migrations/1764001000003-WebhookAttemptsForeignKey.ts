import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An attempt belongs to its delivery, which belongs to its webhook: the delivery's foreign key
 * already deletes attempts with their webhook. The attempt's own key to the webhook only cost a
 * check per attempt written.
 */
export class WebhookAttemptsForeignKey1764001000003 implements MigrationInterface {
  name = 'WebhookAttemptsForeignKey1764001000003';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_7aeddde4d8d3a36841e6da6cbf3"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_7aeddde4d8d3a36841e6da6cbf3" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
