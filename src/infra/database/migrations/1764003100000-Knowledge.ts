import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Knowledge articles with their full-text search vector: title weighted A, body B, in the
 * `english` configuration, kept current by a trigger (TypeORM cannot track a generated column
 * without its own side table), searched through a GIN index.
 */
export class Knowledge1764003100000 implements MigrationInterface {
  name = 'Knowledge1764003100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "knowledge_articles" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "workspace_id" uuid NOT NULL, "title" text NOT NULL, "body" text NOT NULL, "search" tsvector NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4dff86fc9e08f53fe1d4cfe5fb1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "knowledge_articles_workspace_created_idx" ON "knowledge_articles"  ("workspace_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "knowledge_articles" ADD CONSTRAINT "FK_bf244ce33f9c6aaa4ca8c8ee2c7" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE INDEX "knowledge_articles_search_idx" ON "knowledge_articles" USING GIN ("search")`);
    await queryRunner.query(`CREATE FUNCTION "knowledge_articles_search_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := setweight(to_tsvector('english', NEW.title), 'A') || setweight(to_tsvector('english', NEW.body), 'B');
  RETURN NEW;
END
$$`);
    await queryRunner.query(
      `CREATE TRIGGER "knowledge_articles_search" BEFORE INSERT OR UPDATE OF "title", "body" ON "knowledge_articles" FOR EACH ROW EXECUTE FUNCTION "knowledge_articles_search_update"()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "knowledge_articles_search" ON "knowledge_articles"`);
    await queryRunner.query(`DROP FUNCTION "knowledge_articles_search_update"()`);
    await queryRunner.query(`DROP INDEX "public"."knowledge_articles_search_idx"`);
    await queryRunner.query(`ALTER TABLE "knowledge_articles" DROP CONSTRAINT "FK_bf244ce33f9c6aaa4ca8c8ee2c7"`);
    await queryRunner.query(`DROP INDEX "public"."knowledge_articles_workspace_created_idx"`);
    await queryRunner.query(`DROP TABLE "knowledge_articles"`);
  }
}
