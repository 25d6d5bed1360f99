import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Private notes, labels and quick replies (issue 39). Labels sit on conversations and contacts as
 * arrays of label ids (`label_ids`): every read of a row has them without a join, and the GIN
 * index (`?label=`) holds a column no message changes, so the per-message update stays HOT.
 * Notes get their own table (they are never messages: nothing sends them); a label's name is
 * unique per workspace whatever its case (an expression index); a quick reply's shortcut is
 * stored lower-cased, so a plain unique index does.
 */
export class NotesLabelsQuickReplies1764011710000 implements MigrationInterface {
  name = 'NotesLabelsQuickReplies1764011710000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" ADD "label_ids" uuid array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "contacts" ADD "label_ids" uuid array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`CREATE INDEX "conversations_label_ids_idx" ON "conversations" USING gin ("label_ids")`);

    await queryRunner.query(
      `CREATE TABLE "conversation_notes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "author_id" uuid, "body" text NOT NULL, "mentions" uuid array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0fc0c744d3d55f9562d9e382050" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "conversation_notes_conversation_created_idx" ON "conversation_notes"  ("conversation_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "conversation_notes_author_id_idx" ON "conversation_notes"  ("author_id") WHERE "author_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "conversation_notes_mentions_idx" ON "conversation_notes" USING gin ("mentions")`);
    await queryRunner.query(
      `ALTER TABLE "conversation_notes" ADD CONSTRAINT "FK_a0af0320b00d1ae8d90cb08727f" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversation_notes" ADD CONSTRAINT "FK_05198fc7a77a264f1e3b4174099" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversation_notes" ADD CONSTRAINT "FK_a0a60cef8a6437a71aae7a97e50" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );

    await queryRunner.query(
      `CREATE TABLE "labels" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "name" text NOT NULL, "color" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c0c4e97f76f1f3a268c7a70b925" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "labels_workspace_name_uq" ON "labels" ("workspace_id", lower("name"))`);
    await queryRunner.query(
      `ALTER TABLE "labels" ADD CONSTRAINT "FK_abde089be1cb8f9ebc85211e8b7" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    await queryRunner.query(
      `CREATE TABLE "quick_replies" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "shortcut" text NOT NULL, "body" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_38e5f76733adc50f328c8c0f043" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "quick_replies_workspace_shortcut_uq" ON "quick_replies"  ("workspace_id", "shortcut") `);
    await queryRunner.query(
      `ALTER TABLE "quick_replies" ADD CONSTRAINT "FK_032fa5992b066a7496fadfe9552" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "quick_replies"`);
    await queryRunner.query(`DROP TABLE "labels"`);
    await queryRunner.query(`DROP TABLE "conversation_notes"`);
    await queryRunner.query(`DROP INDEX "conversations_label_ids_idx"`);
    await queryRunner.query(`ALTER TABLE "contacts" DROP COLUMN "label_ids"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "label_ids"`);
  }
}
