import { MigrationInterface, QueryRunner } from 'typeorm';

/** The durable state of each workspace's scan session (desired, linked, last error): issue 11. */
export class ScanSessions1764000800000 implements MigrationInterface {
  name = 'ScanSessions1764000800000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scan_sessions" ("workspace_id" uuid NOT NULL, "desired" text NOT NULL DEFAULT 'stopped', "linked" boolean NOT NULL DEFAULT false, "jid" text, "qr_expired" boolean NOT NULL DEFAULT false, "last_error" text, "failures" integer NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ee5d90b2a4d83ed7e759d581b45" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "scan_sessions" ADD CONSTRAINT "FK_ee5d90b2a4d83ed7e759d581b45" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scan_sessions" DROP CONSTRAINT "FK_ee5d90b2a4d83ed7e759d581b45"`);
    await queryRunner.query(`DROP TABLE "scan_sessions"`);
  }
}
