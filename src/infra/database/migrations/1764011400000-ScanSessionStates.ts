import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The session state a number is left in when no worker holds it (issue 37): `stopped`,
 * `logged_out`, `failed` or `passkey_required`, and since when. Rows that stopped before this
 * column existed get theirs from what was stored then.
 */
export class ScanSessionStates1764011400000 implements MigrationInterface {
  name = 'ScanSessionStates1764011400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scan_sessions" ADD "state" text NOT NULL DEFAULT 'stopped'`);
    await queryRunner.query(`ALTER TABLE "scan_sessions" ADD "state_since" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
    await queryRunner.query(
      `UPDATE "scan_sessions" SET "state_since" = "updated_at",
              "state" = CASE WHEN "last_error" IS NULL THEN 'stopped' WHEN NOT "linked" THEN 'logged_out' ELSE 'failed' END`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scan_sessions" DROP COLUMN "state_since"`);
    await queryRunner.query(`ALTER TABLE "scan_sessions" DROP COLUMN "state"`);
  }
}
