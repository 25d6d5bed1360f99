import { MigrationInterface, QueryRunner } from 'typeorm';

const HOUR_OF = (expression: string): string => `date_trunc('hour', ${expression}, 'UTC')`;

/**
 * Makes a new message's conversation update HOT. The list's index held `last_message_at`, which
 * every new message moves, so no such update was HOT: each wrote a new entry into every index of
 * the table. The index now holds the hour of the last message (`last_message_hour`, kept equal to
 * the hour `last_message_at` falls in by a CHECK), and the list sorts within an hour on top of it
 * (incremental sort, same order as before): while a conversation's messages stay within the same
 * hour, its updates change no indexed column, and with the table's fillfactor of 85 they are HOT.
 * The hour is truncated in UTC explicitly, so no session setting changes it. Rewrites the table
 * once (the backfill), under its lock.
 */
export class ConversationListHour1764010100000 implements MigrationInterface {
  name = 'ConversationListHour1764010100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" ADD "last_message_hour" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "conversations" SET "last_message_hour" = ${HOUR_OF('"last_message_at"')}`);
    await queryRunner.query(
      `ALTER TABLE "conversations" ALTER COLUMN "last_message_hour" SET NOT NULL, ALTER COLUMN "last_message_hour" SET DEFAULT ${HOUR_OF('now()')}`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversations" ADD CONSTRAINT "conversations_last_message_hour_ck" CHECK ("last_message_hour" = ${HOUR_OF('"last_message_at"')})`,
    );
    await queryRunner.query(`DROP INDEX "public"."conversations_workspace_last_message_idx"`);
    await queryRunner.query(`CREATE INDEX "conversations_workspace_last_message_idx" ON "conversations" ("workspace_id", "last_message_hour" DESC)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."conversations_workspace_last_message_idx"`);
    await queryRunner.query(`CREATE INDEX "conversations_workspace_last_message_idx" ON "conversations" ("workspace_id", "last_message_at" DESC, "id" DESC)`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "conversations_last_message_hour_ck"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "last_message_hour"`);
  }
}
