import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Insertion order as the tie-break of the message and conversation lists (docs/inbox.md, "Order"):
 * `messages.seq` (a bigserial: existing rows are numbered in their physical order, close to their
 * arrival) and `conversations.last_message_seq` (the seq of the message that set last_message_at).
 * The conversation list keeps its (workspace_id, last_message_at DESC) index and sorts ties by seq
 * on top of it, so last_message_seq is in no index: an update that keeps last_message_at (messages
 * of the same second) stays HOT, helped by the free space fillfactor 85 leaves in each page.
 */
export class InsertionOrder1764007000000 implements MigrationInterface {
  name = 'InsertionOrder1764007000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "seq" bigserial NOT NULL`);
    await queryRunner.query(`ALTER TABLE "conversations" ADD "last_message_seq" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`UPDATE "conversations" c SET "last_message_seq" = s.seq
            FROM (SELECT DISTINCT ON (conversation_id) conversation_id, seq FROM messages ORDER BY conversation_id, timestamp DESC, seq DESC) s
           WHERE s.conversation_id = c.id`);
    await queryRunner.query(`DROP INDEX "public"."messages_conversation_timestamp_idx"`);
    await queryRunner.query(`CREATE INDEX "messages_conversation_timestamp_idx" ON "messages" ("conversation_id", "timestamp" DESC, "seq" DESC)`);
    await queryRunner.query(`ALTER TABLE "conversations" SET (fillfactor = 85)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" RESET (fillfactor)`);
    await queryRunner.query(`DROP INDEX "public"."messages_conversation_timestamp_idx"`);
    await queryRunner.query(`CREATE INDEX "messages_conversation_timestamp_idx" ON "messages" ("conversation_id", "timestamp" DESC, "id" DESC)`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "last_message_seq"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "seq"`);
  }
}
