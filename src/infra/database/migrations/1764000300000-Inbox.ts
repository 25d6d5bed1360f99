import { MigrationInterface, QueryRunner } from 'typeorm';

/** Contacts, conversations and messages (issue 5, inbox core). */
export class Inbox1764000300000 implements MigrationInterface {
  name = 'Inbox1764000300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contacts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "phone" text, "lid" text, "name" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b99cd40cfd66a99f1571f4f72e6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "contacts_workspace_created_idx" ON "contacts"  ("workspace_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "contacts_workspace_lid_uq" ON "contacts"  ("workspace_id", "lid") WHERE "lid" IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "contacts_workspace_phone_uq" ON "contacts"  ("workspace_id", "phone") WHERE "phone" IS NOT NULL`);
    await queryRunner.query(
      `CREATE TABLE "conversations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "channel" text NOT NULL, "chat_jid" text NOT NULL, "contact_id" uuid, "is_group" boolean NOT NULL DEFAULT false, "chat_name" text NOT NULL DEFAULT '', "chat_phone" text NOT NULL DEFAULT '', "assignee_id" uuid, "status" text NOT NULL DEFAULT 'open', "unread_count" integer NOT NULL DEFAULT '0', "last_message_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_message_preview" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ee34f4f7ced4ec8681f26bf04ef" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "conversations_contact_id_idx" ON "conversations"  ("contact_id") `);
    await queryRunner.query(`CREATE INDEX "conversations_assignee_id_idx" ON "conversations"  ("assignee_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "conversations_workspace_channel_chat_uq" ON "conversations"  ("workspace_id", "channel", "chat_jid") `);
    await queryRunner.query(
      `CREATE TABLE "messages" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "channel" text NOT NULL, "external_id" text, "direction" text NOT NULL, "sender_jid" text NOT NULL DEFAULT '', "sender_name" text NOT NULL DEFAULT '', "message_type" text NOT NULL DEFAULT 'text', "content" text NOT NULL DEFAULT '', "media_url" text NOT NULL DEFAULT '', "mime_type" text NOT NULL DEFAULT '', "file_name" text NOT NULL DEFAULT '', "file_size" integer NOT NULL DEFAULT '0', "status" text NOT NULL, "error" text, "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_18325f38ae6de43878487eff986" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "messages_workspace_channel_external_uq" ON "messages"  ("workspace_id", "channel", "external_id") `);
    // Descending keys the entities cannot express (declared there with synchronize: false):
    // the conversation list reads newest first, message pages walk (timestamp, id) downwards.
    await queryRunner.query(`CREATE INDEX "conversations_workspace_last_message_idx" ON "conversations" ("workspace_id", "last_message_at" DESC, "id" DESC)`);
    await queryRunner.query(`CREATE INDEX "messages_conversation_timestamp_idx" ON "messages" ("conversation_id", "timestamp" DESC, "id" DESC)`);
    await queryRunner.query(
      `ALTER TABLE "contacts" ADD CONSTRAINT "FK_a65be64e40ceb2856e46cb9f8a8" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversations" ADD CONSTRAINT "FK_2136015a4b73fb4898773f2226f" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversations" ADD CONSTRAINT "FK_3e605129623b629ddd0583740db" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversations" ADD CONSTRAINT "FK_eb33c4841a61e998a8c906fbcf1" FOREIGN KEY ("assignee_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "messages" ADD CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" DROP CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_eb33c4841a61e998a8c906fbcf1"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_3e605129623b629ddd0583740db"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_2136015a4b73fb4898773f2226f"`);
    await queryRunner.query(`ALTER TABLE "contacts" DROP CONSTRAINT "FK_a65be64e40ceb2856e46cb9f8a8"`);
    await queryRunner.query(`DROP INDEX "public"."messages_conversation_timestamp_idx"`);
    await queryRunner.query(`DROP INDEX "public"."conversations_workspace_last_message_idx"`);
    await queryRunner.query(`DROP INDEX "public"."messages_workspace_channel_external_uq"`);
    await queryRunner.query(`DROP TABLE "messages"`);
    await queryRunner.query(`DROP INDEX "public"."conversations_workspace_channel_chat_uq"`);
    await queryRunner.query(`DROP INDEX "public"."conversations_assignee_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."conversations_contact_id_idx"`);
    await queryRunner.query(`DROP TABLE "conversations"`);
    await queryRunner.query(`DROP INDEX "public"."contacts_workspace_phone_uq"`);
    await queryRunner.query(`DROP INDEX "public"."contacts_workspace_lid_uq"`);
    await queryRunner.query(`DROP INDEX "public"."contacts_workspace_created_idx"`);
    await queryRunner.query(`DROP TABLE "contacts"`);
  }
}
