import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The foreign key from webhook_events.workspace_id took a row lock on the workspace for every
 * event a group writes: the same few hot rows, locked by every concurrent ingest transaction
 * (each a MultiXact once two hold it), about 4 µs per message. Its other role, deleting a
 * workspace's events with it, is now a statement-level trigger on workspaces (and TRUNCATE of
 * workspaces truncates the events). Nothing can write an event for a workspace being deleted:
 * every event is written with its deliveries in one statement, whose foreign key to webhooks
 * locks the webhook rows, which a workspace's deletion removes first (their own cascade), so the
 * deletion waits for the writer's commit and its trigger then sees those events.
 */
export class WebhookEventsWorkspaceCascadeTrigger1764010400000 implements MigrationInterface {
  name = 'WebhookEventsWorkspaceCascadeTrigger1764010400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_events" DROP CONSTRAINT "FK_e6784c9ffb2d56c7788f171d5de"`);
    await queryRunner.query(`
            CREATE FUNCTION workspaces_delete_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              DELETE FROM webhook_events e USING gone g WHERE e.workspace_id = g.id;
              RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE TRIGGER workspaces_delete_webhook_events AFTER DELETE ON workspaces
              REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION workspaces_delete_webhook_events()`);
    await queryRunner.query(`
            CREATE FUNCTION workspaces_truncate_webhook_events() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              TRUNCATE webhook_events;
              RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE TRIGGER workspaces_truncate_webhook_events AFTER TRUNCATE ON workspaces
              FOR EACH STATEMENT EXECUTE FUNCTION workspaces_truncate_webhook_events()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER workspaces_truncate_webhook_events ON workspaces`);
    await queryRunner.query(`DROP FUNCTION workspaces_truncate_webhook_events()`);
    await queryRunner.query(`DROP TRIGGER workspaces_delete_webhook_events ON workspaces`);
    await queryRunner.query(`DROP FUNCTION workspaces_delete_webhook_events()`);
    await queryRunner.query(`DELETE FROM webhook_events e WHERE NOT EXISTS (SELECT 1 FROM workspaces w WHERE w.id = e.workspace_id)`);
    await queryRunner.query(
      `ALTER TABLE "webhook_events" ADD CONSTRAINT "FK_e6784c9ffb2d56c7788f171d5de" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
