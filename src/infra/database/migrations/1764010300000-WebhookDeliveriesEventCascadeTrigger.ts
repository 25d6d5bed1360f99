import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery's event is written in the same statement as the delivery (the outbox, the test
 * event), so the foreign key from webhook_deliveries.event_id could never fail; but its check ran
 * per delivery row on the ingest path: a lookup of the new event and a row lock on it (its own
 * WAL record), about 8 µs of the group transaction per message. What the key also did, delete an
 * event's deliveries with it (retention, a workspace's deletion), is now a statement-level
 * trigger: one DELETE per statement, through the (event_id, webhook_id) index; TRUNCATE of the
 * events truncates the deliveries too, as TRUNCATE … CASCADE did.
 */
export class WebhookDeliveriesEventCascadeTrigger1764010300000 implements MigrationInterface {
  name = 'WebhookDeliveriesEventCascadeTrigger1764010300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f"`);
    await queryRunner.query(`
            CREATE FUNCTION webhook_events_delete_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              DELETE FROM webhook_deliveries d USING gone g WHERE d.event_id = g.id;
              RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE TRIGGER webhook_events_delete_deliveries AFTER DELETE ON webhook_events
              REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION webhook_events_delete_deliveries()`);
    await queryRunner.query(`
            CREATE FUNCTION webhook_events_truncate_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              TRUNCATE webhook_deliveries CASCADE;
              RETURN NULL;
            END $$`);
    await queryRunner.query(`
            CREATE TRIGGER webhook_events_truncate_deliveries AFTER TRUNCATE ON webhook_events
              FOR EACH STATEMENT EXECUTE FUNCTION webhook_events_truncate_deliveries()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER webhook_events_truncate_deliveries ON webhook_events`);
    await queryRunner.query(`DROP FUNCTION webhook_events_truncate_deliveries()`);
    await queryRunner.query(`DROP TRIGGER webhook_events_delete_deliveries ON webhook_events`);
    await queryRunner.query(`DROP FUNCTION webhook_events_delete_deliveries()`);
    await queryRunner.query(`DELETE FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = d.event_id)`);
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_27d1ee90033bdafe0ffe8f1be6f" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
