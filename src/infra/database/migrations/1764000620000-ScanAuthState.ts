import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scan channel's auth state (creds and Signal keys per workspace), encrypted at rest, in
 * Postgres so a session survives restarts and can be resumed by any worker.
 */
export class ScanAuthState1764000620000 implements MigrationInterface {
  name = 'ScanAuthState1764000620000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scan_auth_keys" ("workspace_id" uuid NOT NULL, "type" text NOT NULL, "key_id" text NOT NULL, "value" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ead878ae1aed057052b6bb8b867" PRIMARY KEY ("workspace_id", "type", "key_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "scan_auth_keys" ADD CONSTRAINT "FK_dd997d8bae943bce41128057f26" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scan_auth_keys" DROP CONSTRAINT "FK_dd997d8bae943bce41128057f26"`);
    await queryRunner.query(`DROP TABLE "scan_auth_keys"`);
  }
}
