import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks: configs, the per-workspace signing secret (sealed by the service, so the
 * service creates it: with each new workspace, and for workspaces older than this migration at
 * the first start after it), the transactional outbox (events and their deliveries) and the
 * delivery log (attempts).
 */
export class Webhooks1764001000000 implements MigrationInterface {
  name = 'Webhooks1764001000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "event" text NOT NULL, "source_key" text NOT NULL, "body" bytea NOT NULL, "message_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4cba37e6a0acb5e1fc49c34ebfd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "webhook_events_created_idx" ON "webhook_events"  ("created_at") `);
    await queryRunner.query(`CREATE INDEX "webhook_events_message_idx" ON "webhook_events"  ("message_id") WHERE "message_id" IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "webhook_events_source_uq" ON "webhook_events"  ("workspace_id", "event", "source_key") `);
    await queryRunner.query(
      `CREATE TABLE "webhooks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "disabled_reason" text, "failing_since" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "webhooks_workspace_idx" ON "webhooks"  ("workspace_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "webhook_id" uuid NOT NULL, "event_id" uuid NOT NULL, "status" text NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_error" text, "completed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_held_idx" ON "webhook_deliveries"  ("created_at") WHERE "status" = 'held'`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"  ("next_attempt_at") WHERE "status" = 'pending'`);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries"  ("event_id") `);
    await queryRunner.query(`CREATE INDEX "webhook_deliveries_workspace_idx" ON "webhook_deliveries"  ("workspace_id", "completed_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "webhook_deliveries_webhook_event_uq" ON "webhook_deliveries"  ("webhook_id", "event_id") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_attempts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "webhook_id" uuid NOT NULL, "delivery_id" uuid NOT NULL, "attempt" integer NOT NULL, "status" text NOT NULL, "response_status" integer, "error" text, "duration_ms" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2de7e7887ad97de459adab62638" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts"  ("delivery_id") `);
    await queryRunner.query(`CREATE INDEX "webhook_attempts_log_idx" ON "webhook_attempts"  ("workspace_id", "webhook_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_secrets" ("workspace_id" uuid NOT NULL, "secret" text NOT NULL, "previous_secret" text, "previous_expires_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "rotated_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_faf7f9e760ea7f42489e6fd3e47" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_events" ADD CONSTRAINT "FK_e6784c9ffb2d56c7788f171d5de" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhooks" ADD CONSTRAINT "FK_3ed8fd5f3708d4acac990ad2369" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_7aeddde4d8d3a36841e6da6cbf3" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_attempts" ADD CONSTRAINT "FK_0d56d91d61b827bb2079c256538" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_secrets" ADD CONSTRAINT "FK_faf7f9e760ea7f42489e6fd3e47" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_secrets" DROP CONSTRAINT "FK_faf7f9e760ea7f42489e6fd3e47"`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_0d56d91d61b827bb2079c256538"`);
    await queryRunner.query(`ALTER TABLE "webhook_attempts" DROP CONSTRAINT "FK_7aeddde4d8d3a36841e6da6cbf3"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2"`);
    await queryRunner.query(`ALTER TABLE "webhooks" DROP CONSTRAINT "FK_3ed8fd5f3708d4acac990ad2369"`);
    await queryRunner.query(`ALTER TABLE "webhook_events" DROP CONSTRAINT "FK_e6784c9ffb2d56c7788f171d5de"`);
    await queryRunner.query(`DROP TABLE "webhook_secrets"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_attempts_log_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_attempts_delivery_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_webhook_event_uq"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_workspace_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_event_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_due_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_deliveries_held_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."webhooks_workspace_idx"`);
    await queryRunner.query(`DROP TABLE "webhooks"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_events_source_uq"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_events_message_idx"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_events_created_idx"`);
    await queryRunner.query(`DROP TABLE "webhook_events"`);
  }
}
