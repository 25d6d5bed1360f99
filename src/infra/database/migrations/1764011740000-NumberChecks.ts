import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What WhatsApp answered when a number asked whether a phone is on WhatsApp (issue 40,
 * `GET /api/chat/check` and the check before a first message): the latest answer per workspace
 * and phone, reused while fresh (7 days when on WhatsApp, 6 hours when not).
 */
export class NumberChecks1764011740000 implements MigrationInterface {
  name = 'NumberChecks1764011740000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scan_number_checks" ("workspace_id" uuid NOT NULL, "phone" text NOT NULL, "exists" boolean NOT NULL, "jid" text, "checked_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9afef95a5849459a495d236c299" PRIMARY KEY ("workspace_id", "phone"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "scan_number_checks" ADD CONSTRAINT "FK_d207edf390cfdf32c82df373b0e" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "scan_number_checks" DROP CONSTRAINT "FK_d207edf390cfdf32c82df373b0e"`);
    await queryRunner.query(`DROP TABLE "scan_number_checks"`);
  }
}
