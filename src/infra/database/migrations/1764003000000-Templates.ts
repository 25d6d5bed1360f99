import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message templates (content module): local ones of scan workspaces and the Cloud API provider's
 * mirrored ones (unique provider id per workspace); name and language identify a template.
 */
export class Templates1764003000000 implements MigrationInterface {
  name = 'Templates1764003000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "templates" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "name" text NOT NULL, "language" text NOT NULL, "category" text NOT NULL, "body" text NOT NULL, "status" text, "quality" text, "provider_id" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_515948649ce0bbbe391de702ae5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "templates_workspace_created_idx" ON "templates"  ("workspace_id", "created_at") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "templates_workspace_provider_uq" ON "templates"  ("workspace_id", "provider_id") WHERE "provider_id" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "templates_workspace_name_language_uq" ON "templates"  ("workspace_id", "name", "language") `);
    await queryRunner.query(
      `ALTER TABLE "templates" ADD CONSTRAINT "FK_8cdf85d2789b13aab53c70d4ecd" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "templates" DROP CONSTRAINT "FK_8cdf85d2789b13aab53c70d4ecd"`);
    await queryRunner.query(`DROP INDEX "public"."templates_workspace_name_language_uq"`);
    await queryRunner.query(`DROP INDEX "public"."templates_workspace_provider_uq"`);
    await queryRunner.query(`DROP INDEX "public"."templates_workspace_created_idx"`);
    await queryRunner.query(`DROP TABLE "templates"`);
  }
}
