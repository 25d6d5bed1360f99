import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A new message's conversation update moves `last_message_at`, which is in the list's index, so
 * it is never HOT and Postgres adds an entry to every index of the table. The contact and
 * assignee indexes only serve lookups of one contact or user (merges, the foreign keys' ON DELETE
 * SET NULL, an agent's conversations), which never ask for NULL: indexing only the non-NULL rows
 * spares that entry for unassigned conversations (most of them) and group chats (no contact).
 */
export class ConversationPartialIndexes1764009100000 implements MigrationInterface {
  name = 'ConversationPartialIndexes1764009100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."conversations_assignee_id_idx"`);
    await queryRunner.query(`CREATE INDEX "conversations_assignee_id_idx" ON "conversations" ("assignee_id") WHERE "assignee_id" IS NOT NULL`);
    await queryRunner.query(`DROP INDEX "public"."conversations_contact_id_idx"`);
    await queryRunner.query(`CREATE INDEX "conversations_contact_id_idx" ON "conversations" ("contact_id") WHERE "contact_id" IS NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."conversations_contact_id_idx"`);
    await queryRunner.query(`CREATE INDEX "conversations_contact_id_idx" ON "conversations" ("contact_id") `);
    await queryRunner.query(`DROP INDEX "public"."conversations_assignee_id_idx"`);
    await queryRunner.query(`CREATE INDEX "conversations_assignee_id_idx" ON "conversations" ("assignee_id") `);
  }
}
