import { MigrationInterface, QueryRunner } from 'typeorm';

/** Pending Google sign-ups awaiting the terms (docs/accounts.md, "Google sign-in"). */
export class GooglePendingSignups1764004000000 implements MigrationInterface {
  name = 'GooglePendingSignups1764004000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "google_pending_signups" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "token_hash" text NOT NULL, "google_sub" text NOT NULL, "email" text NOT NULL, "email_verified" boolean NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_83db656ff9005d3dacda54648d0" UNIQUE ("token_hash"), CONSTRAINT "PK_d560137fa0fa217870616eb3918" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "google_pending_signups_google_sub_idx" ON "google_pending_signups"  ("google_sub") `);
    await queryRunner.query(`CREATE INDEX "google_pending_signups_expires_at_idx" ON "google_pending_signups"  ("expires_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."google_pending_signups_expires_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."google_pending_signups_google_sub_idx"`);
    await queryRunner.query(`DROP TABLE "google_pending_signups"`);
  }
}
