import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statuses `pending` and `snoozed` beside `open` and `closed` (issue 39): `snoozed_until` says when
 * a snoozed conversation opens again by itself; the partial index is the wake-up sweep's, and
 * holds only snoozed rows (no entry, so no cost, for the others).
 */
export class ConversationStatuses1764011700000 implements MigrationInterface {
  name = 'ConversationStatuses1764011700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" ADD "snoozed_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`CREATE INDEX "conversations_snoozed_until_idx" ON "conversations"  ("snoozed_until") WHERE "status" = 'snoozed'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."conversations_snoozed_until_idx"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "snoozed_until"`);
  }
}
