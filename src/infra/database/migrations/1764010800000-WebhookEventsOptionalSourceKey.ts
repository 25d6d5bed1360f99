import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event written in the transaction that inserts its source, one per new message (scan.chat),
 * needs no key of its own: the message's unique index already makes it happen once. Its source
 * key is now null. The key's unique index keeps it (Postgres indexes nulls, and never finds two
 * equal): a null entry sorts after its workspace's keyed ones of the event, so the ingest path's
 * entries gather at a few places of the index instead of a random one each, and compare without
 * reading a 36-character key (docs/inbox.md). Events that can be written twice (meta.chat per
 * callback, test sends) keep their keys and their no-op repeat.
 *
 * The index stays whole rather than partial (WHERE source_key IS NOT NULL): replicas of the
 * previous version, still running during a rolling update, write with ON CONFLICT on these
 * columns without a predicate, which a partial index cannot answer.
 */
export class WebhookEventsOptionalSourceKey1764010800000 implements MigrationInterface {
  name = 'WebhookEventsOptionalSourceKey1764010800000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_events" ALTER COLUMN "source_key" DROP NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "webhook_events" SET "source_key" = 'event:' || "id"::text WHERE "source_key" IS NULL`);
    await queryRunner.query(`ALTER TABLE "webhook_events" ALTER COLUMN "source_key" SET NOT NULL`);
  }
}
