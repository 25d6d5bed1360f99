import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Only the pruner looks events up by age (older than the retention, any order), and events are
 * appended in time order: a BRIN index (a summary per range of pages) answers that as well as a
 * btree, and costs the ingest transaction nothing per event, where the btree took an entry (and a
 * WAL record) for every message of every group. autosummarize: autovacuum summarises each range
 * as it fills, so the pruner skips the recent ones instead of reading every unsummarised page.
 */
export class WebhookEventsCreatedBrin1764010200000 implements MigrationInterface {
  name = 'WebhookEventsCreatedBrin1764010200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_events_created_idx"`);
    await queryRunner.query(`CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING brin ("created_at") WITH (autosummarize = on)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."webhook_events_created_idx"`);
    await queryRunner.query(`CREATE INDEX "webhook_events_created_idx" ON "webhook_events" ("created_at") `);
  }
}
