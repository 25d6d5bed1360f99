import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * webhook_deliveries_workspace_idx (workspace_id, completed_at) served only the outbox figures
 * (GET /api/webhooks/stats), and every delivery written paid its entry, on the ingest path. It now
 * holds finished deliveries only: a delivery enters it when it is delivered or given up, an update
 * that writes new entries in every index anyway (its status is in the partial indexes'
 * predicates). The figures count the waiting ones through the indexes that already hold them
 * (an endpoint's pending deliveries, the held ones). One index entry fewer per message.
 */
export class WebhookDeliveriesCompletedIndex1764010900000 implements MigrationInterface {
    name = 'WebhookDeliveriesCompletedIndex1764010900000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "webhook_deliveries_workspace_idx"`);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_completed_idx" ON "webhook_deliveries" ("workspace_id", "completed_at") WHERE "completed_at" IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "webhook_deliveries_completed_idx"`);
        await queryRunner.query(`CREATE INDEX "webhook_deliveries_workspace_idx" ON "webhook_deliveries" ("workspace_id", "completed_at")`);
    }

}
