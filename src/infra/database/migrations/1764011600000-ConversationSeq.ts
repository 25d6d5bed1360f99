import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each message's place in its conversation (`conversation_seq`, the API's and the events' `seq`:
 * 1, 2, 3, … gap-free per conversation) and the conversation's counter (`last_seq`, the highest
 * one given). Writers take the next number from `last_seq` under the conversation's row lock
 * (docs/inbox.md, "Order within a conversation").
 *
 * The backfill numbers existing messages by their insertion order (the global `seq`) in one
 * UPDATE … FROM over a window (one pass over the table, no per-row subquery), and sets each
 * conversation's counter to its count. The unique index is built after the backfill (one sort
 * instead of an index update per row). The column stays nullable: adding it without a default
 * rewrites nothing, and no writer leaves it null.
 */
export class ConversationSeq1764011600000 implements MigrationInterface {
  name = 'ConversationSeq1764011600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "conversation_seq" bigint`);
    await queryRunner.query(`ALTER TABLE "conversations" ADD "last_seq" bigint NOT NULL DEFAULT 0`);
    await queryRunner.query(`UPDATE messages m SET conversation_seq = n.rn
      FROM (SELECT id, row_number() OVER (PARTITION BY conversation_id ORDER BY seq) AS rn FROM messages) n
     WHERE m.id = n.id`);
    await queryRunner.query(`UPDATE conversations cv SET last_seq = n.total
      FROM (SELECT conversation_id, count(*) AS total FROM messages GROUP BY conversation_id) n
     WHERE cv.id = n.conversation_id`);
    await queryRunner.query(`CREATE UNIQUE INDEX "messages_conversation_seq_uq" ON "messages" ("conversation_id", "conversation_seq")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "messages_conversation_seq_uq"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "last_seq"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "conversation_seq"`);
  }
}
