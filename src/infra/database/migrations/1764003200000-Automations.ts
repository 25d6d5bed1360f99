import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automations (conditions and actions as validated JSON) and their outbox: one row per new inbound
 * message of a workspace with enabled automations, written in the ingest transaction and swept
 * while pending (partial index on created_at).
 */
export class Automations1764003200000 implements MigrationInterface {
  name = 'Automations1764003200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "automation_triggers" ("message_id" uuid NOT NULL, "workspace_id" uuid NOT NULL, "conversation_created" boolean NOT NULL, "claimed" uuid array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "done_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_9b07d35f77192ad375482e5dbb1" PRIMARY KEY ("message_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "automation_triggers_pending_idx" ON "automation_triggers"  ("created_at") WHERE "done_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "automation_triggers_workspace_idx" ON "automation_triggers"  ("workspace_id") `);
    await queryRunner.query(
      `CREATE TABLE "automations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "name" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "trigger" text NOT NULL, "match" text NOT NULL DEFAULT 'all', "conditions" jsonb NOT NULL DEFAULT '[]', "actions" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_34c2cc382fc780ea36f7c478192" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "automations_workspace_created_idx" ON "automations"  ("workspace_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "automation_triggers" ADD CONSTRAINT "FK_9b07d35f77192ad375482e5dbb1" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "automation_triggers" ADD CONSTRAINT "FK_3a94acb3b3f440ecf9760e0b36a" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "automations" ADD CONSTRAINT "FK_19df1bc66637ce7e3bd62c229e9" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "automations" DROP CONSTRAINT "FK_19df1bc66637ce7e3bd62c229e9"`);
    await queryRunner.query(`ALTER TABLE "automation_triggers" DROP CONSTRAINT "FK_3a94acb3b3f440ecf9760e0b36a"`);
    await queryRunner.query(`ALTER TABLE "automation_triggers" DROP CONSTRAINT "FK_9b07d35f77192ad375482e5dbb1"`);
    await queryRunner.query(`DROP INDEX "public"."automations_workspace_created_idx"`);
    await queryRunner.query(`DROP TABLE "automations"`);
    await queryRunner.query(`DROP INDEX "public"."automation_triggers_workspace_idx"`);
    await queryRunner.query(`DROP INDEX "public"."automation_triggers_pending_idx"`);
    await queryRunner.query(`DROP TABLE "automation_triggers"`);
  }
}
