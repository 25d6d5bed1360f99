import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * autosummarize asked autovacuum to summarise each page range of the events' BRIN index as it
 * filled, through a cluster-wide queue of 256 work items. A burst of ingest (thousands of events a
 * second, a range of 1 MB filled several times a second) overflows that queue, and Postgres logs
 * "request for BRIN range summarization … was not recorded" for every range it drops: dozens of
 * lines per benchmark run. Without it, the VACUUM that autovacuum starts after enough inserts
 * (Postgres 13 and later) summarises every range not yet summarised, and until then the pruner
 * merely reads the newest, unsummarised pages, which hold recent events it keeps anyway.
 */
export class WebhookEventsBrinVacuumSummarized1764010500000 implements MigrationInterface {
  name = 'WebhookEventsBrinVacuumSummarized1764010500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "webhook_events_created_idx" SET (autosummarize = off)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX "webhook_events_created_idx" SET (autosummarize = on)`);
  }
}
