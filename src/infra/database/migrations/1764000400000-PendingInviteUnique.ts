import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * At most one pending invite per address and workspace, so concurrent re-invites cannot leave
 * several working links (the repository upserts on this index). Revoking deletes the row, so
 * "pending" is "not accepted". Older duplicates are removed first, keeping the newest.
 */
export class PendingInviteUnique1764000400000 implements MigrationInterface {
  name = 'PendingInviteUnique1764000400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "invites" i USING "invites" newer WHERE i."accepted_at" IS NULL AND newer."accepted_at" IS NULL AND i."workspace_id" = newer."workspace_id" AND lower(i."email") = lower(newer."email") AND (i."created_at", i."id") < (newer."created_at", newer."id")`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "invites_pending_email_uq" ON "invites" ("workspace_id", lower("email")) WHERE "accepted_at" IS NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."invites_pending_email_uq"`);
  }
}
