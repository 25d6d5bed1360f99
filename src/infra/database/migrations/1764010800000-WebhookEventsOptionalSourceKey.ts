import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * An event written in the transaction that inserts its source, one per new message (scan.chat),
 * needs no key of its own: the message's unique index already makes it happen once. Its source
 * key is now null and the key's unique index leaves it out, one index entry (about 70 bytes, in
 * random order) fewer per message on the ingest path. Events that can be written twice (meta.chat
 * per callback, test sends) keep their keys and their no-op repeat (docs/webhooks.md).
 */
export class WebhookEventsOptionalSourceKey1764010800000 implements MigrationInterface {
    name = 'WebhookEventsOptionalSourceKey1764010800000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook_events" ALTER COLUMN "source_key" DROP NOT NULL`);
        await queryRunner.query(`DROP INDEX "webhook_events_source_uq"`);
        await queryRunner.query(`CREATE UNIQUE INDEX "webhook_events_source_uq" ON "webhook_events" ("workspace_id", "event", "source_key") WHERE "source_key" IS NOT NULL`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`UPDATE "webhook_events" SET "source_key" = 'event:' || "id"::text WHERE "source_key" IS NULL`);
        await queryRunner.query(`DROP INDEX "webhook_events_source_uq"`);
        await queryRunner.query(`CREATE UNIQUE INDEX "webhook_events_source_uq" ON "webhook_events" ("workspace_id", "event", "source_key")`);
        await queryRunner.query(`ALTER TABLE "webhook_events" ALTER COLUMN "source_key" SET NOT NULL`);
    }

}
