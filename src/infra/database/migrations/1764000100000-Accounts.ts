import { MigrationInterface, QueryRunner } from 'typeorm';

export class Accounts1764000100000 implements MigrationInterface {
  name = 'Accounts1764000100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "email_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "purpose" text NOT NULL, "token_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_8acb431edfc9f9d0e77741468ed" UNIQUE ("token_hash"), CONSTRAINT "PK_08abb3fa348e894c274a6730d35" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "email_tokens_user_id_idx" ON "email_tokens"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "invites" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "email" text NOT NULL, "role" text NOT NULL, "token_hash" text NOT NULL, "invited_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_0843131f4ae91435709527a4f18" UNIQUE ("token_hash"), CONSTRAINT "PK_aa52e96b44a714372f4dd31a0af" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "invites_workspace_id_idx" ON "invites"  ("workspace_id") `);
    await queryRunner.query(
      `ALTER TABLE "email_tokens" ADD CONSTRAINT "FK_018295f41628791c301bfe8b625" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invites" ADD CONSTRAINT "FK_568872c5b015a0e9d763837d530" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invites" ADD CONSTRAINT "FK_6e727f063d839c0090364ea95f3" FOREIGN KEY ("invited_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invites" DROP CONSTRAINT "FK_6e727f063d839c0090364ea95f3"`);
    await queryRunner.query(`ALTER TABLE "invites" DROP CONSTRAINT "FK_568872c5b015a0e9d763837d530"`);
    await queryRunner.query(`ALTER TABLE "email_tokens" DROP CONSTRAINT "FK_018295f41628791c301bfe8b625"`);
    await queryRunner.query(`DROP INDEX "public"."invites_workspace_id_idx"`);
    await queryRunner.query(`DROP TABLE "invites"`);
    await queryRunner.query(`DROP INDEX "public"."email_tokens_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "email_tokens"`);
  }
}
