import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sending with care for the number (issue 40, docs/sending.md): the outbound queue (one row per
 * send waiting for its number's turn, with what the channel needs to send it), a workspace's own
 * sending settings, and the chats each number started (the first-contact cap's count).
 */
export class OutboundQueue1764011750000 implements MigrationInterface {
  name = 'OutboundQueue1764011750000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "send_first_contacts" ("workspace_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7c5e13ec80c870746f4e4c34018" PRIMARY KEY ("workspace_id", "conversation_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "send_first_contacts_workspace_at_idx" ON "send_first_contacts"  ("workspace_id", "at") `);
    await queryRunner.query(
      `CREATE TABLE "outbound_queue" ("message_id" uuid NOT NULL, "ticket" BIGSERIAL NOT NULL, "workspace_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "channel" text NOT NULL, "payload" jsonb NOT NULL, "typing" boolean NOT NULL DEFAULT false, "not_before" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "attempts" integer NOT NULL DEFAULT '0', "queued_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5502ea5b0518b1c626c7dd74597" PRIMARY KEY ("message_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "outbound_queue_conversation_ticket_idx" ON "outbound_queue"  ("workspace_id", "conversation_id", "ticket") `);
    await queryRunner.query(`CREATE INDEX "outbound_queue_workspace_ticket_idx" ON "outbound_queue"  ("workspace_id", "ticket") `);
    await queryRunner.query(
      `CREATE TABLE "send_settings" ("workspace_id" uuid NOT NULL, "min_gap_ms" integer NOT NULL, "jitter_ms" integer NOT NULL, "per_minute" integer NOT NULL, "burst" integer NOT NULL, "typing" text NOT NULL, "first_contacts_per_day" integer NOT NULL, "unanswered_per_chat" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "send_settings_typing_ck" CHECK ("typing" IN ('automations', 'all', 'off')), CONSTRAINT "PK_def23da8729474f89c63a0fba5f" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "send_first_contacts" ADD CONSTRAINT "FK_abb9cf31f25686ce302e4840a97" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "outbound_queue" ADD CONSTRAINT "FK_5502ea5b0518b1c626c7dd74597" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "send_settings" ADD CONSTRAINT "FK_def23da8729474f89c63a0fba5f" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "send_settings"`);
    await queryRunner.query(`DROP TABLE "outbound_queue"`);
    await queryRunner.query(`DROP TABLE "send_first_contacts"`);
  }
}
