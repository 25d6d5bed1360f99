import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cloud channel (issue 14): per-workspace Cloud API settings, the provider callbacks stored
 * before they are answered, and the business-scoped user id of contacts.
 */
export class MetaChannel1764002000000 implements MigrationInterface {
  name = 'MetaChannel1764002000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "meta_callbacks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "body_sha256" text NOT NULL, "body" bytea, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "processed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5603dd7c6a305c59f1d4c406578" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "meta_callbacks_received_at_idx" ON "meta_callbacks"  ("received_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "meta_callbacks_body_sha256_uq" ON "meta_callbacks"  ("body_sha256") `);
    await queryRunner.query(`CREATE INDEX "meta_callbacks_pending_idx" ON "meta_callbacks"  ("received_at") WHERE "processed_at" IS NULL`);
    await queryRunner.query(
      `CREATE TABLE "meta_settings" ("workspace_id" uuid NOT NULL, "phone_number_id" text NOT NULL, "waba_id" text NOT NULL, "display_phone_number" text NOT NULL DEFAULT '', "verified_name" text NOT NULL DEFAULT '', "access_token" text NOT NULL, "registration_pin" text, "connected" boolean NOT NULL DEFAULT true, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b3ecb1c49a2b6b814eb75dddc76" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "meta_settings_waba_id_idx" ON "meta_settings"  ("waba_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "meta_settings_phone_number_id_uq" ON "meta_settings"  ("phone_number_id") `);
    await queryRunner.query(`ALTER TABLE "contacts" ADD "bsuid" text`);
    await queryRunner.query(`CREATE UNIQUE INDEX "contacts_workspace_bsuid_uq" ON "contacts"  ("workspace_id", "bsuid") WHERE "bsuid" IS NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "meta_settings" ADD CONSTRAINT "FK_b3ecb1c49a2b6b814eb75dddc76" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "meta_settings" DROP CONSTRAINT "FK_b3ecb1c49a2b6b814eb75dddc76"`);
    await queryRunner.query(`DROP INDEX "public"."contacts_workspace_bsuid_uq"`);
    await queryRunner.query(`ALTER TABLE "contacts" DROP COLUMN "bsuid"`);
    await queryRunner.query(`DROP INDEX "public"."meta_settings_phone_number_id_uq"`);
    await queryRunner.query(`DROP INDEX "public"."meta_settings_waba_id_idx"`);
    await queryRunner.query(`DROP TABLE "meta_settings"`);
    await queryRunner.query(`DROP INDEX "public"."meta_callbacks_pending_idx"`);
    await queryRunner.query(`DROP INDEX "public"."meta_callbacks_body_sha256_uq"`);
    await queryRunner.query(`DROP INDEX "public"."meta_callbacks_received_at_idx"`);
    await queryRunner.query(`DROP TABLE "meta_callbacks"`);
  }
}
