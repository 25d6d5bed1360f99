import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Report activity (issue 39): the log `conversation_activity` (openings, first responses,
 * closings) and the current opening's bookkeeping on `conversations` (`opened_at`,
 * `first_inbound_at`, `first_response_at`: in no index, so the per-message update stays HOT).
 *
 * Openings and closings are written by triggers on `conversations`, because every path that
 * opens, reopens or closes one writes that row (the single-message and group ingest statements,
 * history batches, starting a conversation, PATCH, automations, the snooze sweeper, and any path
 * added later) while only some of them go through InboxChangeHooks (ingest's reopen does not), and
 * a hook on ingest would put every ingest in a transaction. The triggers are narrow: the update
 * trigger's WHEN clause holds only when the status enters or leaves `closed`, or when an opening
 * gets its first inbound message (the unread count grows while `first_inbound_at` is null), so a
 * message into an open conversation that had its first one evaluates the clause and nothing
 * more. The insert trigger runs per new conversation (never per message). First responses are
 * written by the send's transaction (src/modules/reports/first-response.hook.ts): only a send
 * knows who sent it and whether a person did.
 *
 * Existing conversations get no opening (`opened_at` null): their next closing counts as closed
 * without a resolution time, and their messages count as first inbound only after a reopening.
 */
export class ConversationReports1764011730000 implements MigrationInterface {
  name = 'ConversationReports1764011730000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" ADD "opened_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "conversations" ADD "first_inbound_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "conversations" ADD "first_response_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE TABLE "conversation_activity" ("id" BIGSERIAL NOT NULL, "workspace_id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "kind" text NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "user_id" uuid, "seconds" integer, CONSTRAINT "conversation_activity_kind_ck" CHECK ("kind" IN ('opened', 'first_response', 'closed')), CONSTRAINT "PK_conversation_activity" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "conversation_activity_workspace_at_idx" ON "conversation_activity" ("workspace_id", "at") `);
    await queryRunner.query(`CREATE INDEX "conversation_activity_conversation_idx" ON "conversation_activity" ("conversation_id") `);
    await queryRunner.query(
      `ALTER TABLE "conversation_activity" ADD CONSTRAINT "FK_6962a318093cb1541f20e5a65fe" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    // A new conversation opens when its first message was written (history: in the past), never
    // later than now; created by an inbound message (unread 1), that message is its first inbound.
    // BEFORE only sets columns (an INSERT … ON CONFLICT that then conflicts runs it too); the log
    // row is written AFTER, for rows really inserted.
    await queryRunner.query(`
      CREATE FUNCTION conversation_report_new() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.opened_at := LEAST(NEW.last_message_at, now());
        NEW.first_inbound_at := CASE WHEN NEW.unread_count > 0 THEN NEW.opened_at END;
        NEW.first_response_at := NULL;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION conversation_report_created() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO conversation_activity (workspace_id, conversation_id, kind, at, user_id)
        VALUES (NEW.workspace_id, NEW.id, 'opened', NEW.opened_at, NEW.assignee_id);
        RETURN NULL;
      END $$`);
    // Leaving closed starts an opening (an inbound message's reopen at that message's time, any
    // other at now); entering closed ends it, credited to the assignee, or, unassigned, to whoever
    // gave the opening's first response (a trigger does not know who closed it). The unread count growing is how an update says that
    // an inbound message came in (live ingest and history batches counting unread move it; nothing
    // else raises it).
    await queryRunner.query(`
      CREATE FUNCTION conversation_report_moved() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        inbound boolean := NEW.unread_count > OLD.unread_count;
        message_at timestamptz := CASE WHEN NEW.last_message_at > OLD.last_message_at THEN LEAST(NEW.last_message_at, now()) ELSE now() END;
      BEGIN
        IF OLD.status = 'closed' AND NEW.status <> 'closed' THEN
          NEW.opened_at := CASE WHEN inbound THEN message_at ELSE now() END;
          NEW.first_inbound_at := CASE WHEN inbound THEN NEW.opened_at END;
          NEW.first_response_at := NULL;
          INSERT INTO conversation_activity (workspace_id, conversation_id, kind, at, user_id)
          VALUES (NEW.workspace_id, NEW.id, 'opened', NEW.opened_at, NEW.assignee_id);
        ELSIF NEW.status = 'closed' AND OLD.status <> 'closed' THEN
          INSERT INTO conversation_activity (workspace_id, conversation_id, kind, at, user_id, seconds)
          VALUES (NEW.workspace_id, NEW.id, 'closed', now(),
                  COALESCE(NEW.assignee_id, (SELECT a.user_id FROM conversation_activity a
                                              WHERE a.conversation_id = NEW.id AND a.kind = 'first_response' AND a.at = NEW.first_response_at
                                              LIMIT 1)),
                  CASE WHEN NEW.opened_at IS NOT NULL THEN GREATEST(0, round(extract(epoch FROM now() - NEW.opened_at)))::int END);
        ELSIF inbound AND NEW.first_inbound_at IS NULL AND NEW.opened_at IS NOT NULL THEN
          NEW.first_inbound_at := message_at;
        END IF;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER conversations_report_new BEFORE INSERT ON "conversations" FOR EACH ROW EXECUTE FUNCTION conversation_report_new()`);
    await queryRunner.query(
      `CREATE TRIGGER conversations_report_created AFTER INSERT ON "conversations" FOR EACH ROW EXECUTE FUNCTION conversation_report_created()`,
    );
    await queryRunner.query(`
      CREATE TRIGGER conversations_report_moved BEFORE UPDATE ON "conversations" FOR EACH ROW
      WHEN ((OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'closed' OR NEW.status = 'closed'))
            OR (NEW.first_inbound_at IS NULL AND NEW.opened_at IS NOT NULL AND NEW.unread_count > OLD.unread_count))
      EXECUTE FUNCTION conversation_report_moved()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER conversations_report_moved ON "conversations"`);
    await queryRunner.query(`DROP TRIGGER conversations_report_created ON "conversations"`);
    await queryRunner.query(`DROP TRIGGER conversations_report_new ON "conversations"`);
    await queryRunner.query(`DROP FUNCTION conversation_report_moved()`);
    await queryRunner.query(`DROP FUNCTION conversation_report_created()`);
    await queryRunner.query(`DROP FUNCTION conversation_report_new()`);
    await queryRunner.query(`DROP TABLE "conversation_activity"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "first_response_at"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "first_inbound_at"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "opened_at"`);
  }
}
