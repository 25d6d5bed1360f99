import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scan channel's inbound side: media references waiting for the `media-download` job, and
 * history batches waiting for the `history-sync` job (both encrypted, both short-lived).
 */
export class ScanInbound1764000700000 implements MigrationInterface {
  name = 'ScanInbound1764000700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scan_history_batches" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "payload" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4fe980c50542c659520c34ce28b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "scan_history_batches_workspace_idx" ON "scan_history_batches"  ("workspace_id") `);
    await queryRunner.query(
      `CREATE TABLE "scan_media_refs" ("message_id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "ref" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0f4c0ceb7e009fe2d12350d1d53" PRIMARY KEY ("message_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "scan_media_refs_workspace_idx" ON "scan_media_refs"  ("workspace_id") `);
    await queryRunner.query(
      `ALTER TABLE "scan_history_batches" ADD CONSTRAINT "FK_1db36fe5bfc45c0c6ef33515685" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scan_media_refs" ADD CONSTRAINT "FK_0f4c0ceb7e009fe2d12350d1d53" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scan_media_refs" DROP CONSTRAINT "FK_0f4c0ceb7e009fe2d12350d1d53"`);
    await queryRunner.query(`ALTER TABLE "scan_history_batches" DROP CONSTRAINT "FK_1db36fe5bfc45c0c6ef33515685"`);
    await queryRunner.query(`DROP INDEX "public"."scan_media_refs_workspace_idx"`);
    await queryRunner.query(`DROP TABLE "scan_media_refs"`);
    await queryRunner.query(`DROP INDEX "public"."scan_history_batches_workspace_idx"`);
    await queryRunner.query(`DROP TABLE "scan_history_batches"`);
  }
}
