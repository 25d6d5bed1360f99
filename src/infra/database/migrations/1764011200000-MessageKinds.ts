import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every message kind (video, audio, voice, sticker, location, contacts, poll, unsupported) and
 * what acts on messages: a message keeps its playing time, the channel id of the message it
 * quotes (and our id of it when the inbox held it), its structured parts and mentions
 * (`details`), the reactions of each person, and when it was edited or deleted for everyone.
 * `message_type` already held the kind; the new kinds need no change to it.
 *
 * `pending_message_updates` holds a reaction, edit or revoke that arrived before the message it
 * acts on: applied when that message is stored, dropped (and counted) after a few minutes.
 * Adding columns with constant defaults rewrites nothing.
 */
export class MessageKinds1764011200000 implements MigrationInterface {
  name = 'MessageKinds1764011200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages"
      ADD "duration_s" integer NOT NULL DEFAULT 0,
      ADD "quoted_external_id" text NOT NULL DEFAULT '',
      ADD "quoted_id" uuid,
      ADD "details" jsonb,
      ADD "reactions" jsonb NOT NULL DEFAULT '[]',
      ADD "edited_at" timestamptz,
      ADD "deleted_at" timestamptz`);
    await queryRunner.query(`CREATE TABLE "pending_message_updates" (
      "id" bigserial PRIMARY KEY,
      "workspace_id" uuid NOT NULL,
      "channel" text NOT NULL,
      "target_external_id" text NOT NULL,
      "kind" text NOT NULL,
      "payload" jsonb NOT NULL,
      "received_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(
      `ALTER TABLE "pending_message_updates" ADD CONSTRAINT "FK_e8add330810bb8dc658810c340b" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE INDEX "pending_message_updates_target_idx" ON "pending_message_updates" ("workspace_id", "channel", "target_external_id")`);
    await queryRunner.query(`CREATE INDEX "pending_message_updates_received_idx" ON "pending_message_updates" ("received_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "pending_message_updates"`);
    await queryRunner.query(`ALTER TABLE "messages"
      DROP COLUMN "duration_s", DROP COLUMN "quoted_external_id", DROP COLUMN "quoted_id", DROP COLUMN "details",
      DROP COLUMN "reactions", DROP COLUMN "edited_at", DROP COLUMN "deleted_at"`);
  }
}
