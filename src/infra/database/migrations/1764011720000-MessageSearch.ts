import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search (issue 39): a GIN index over the words of a message's text or caption and its
 * file name, as an expression index (no stored tsvector: the row, which every status update
 * copies, stays as it was). 'simple' because chats mix languages: words are lower-cased and
 * matched as written, with no stemming or stop words of one language. The index's columns are
 * `content` and `file_name`, which only an edit changes, so status updates stay HOT. GIN's fast
 * update (the default) queues a new message's entries in the pending list, merged into the tree
 * in bulk by autovacuum (or an insert that finds the list over gin_pending_list_limit): ingest
 * pays an append, not one tree insertion per word (docs/inbox.md, "Search").
 * The expression must stay exactly messageSearchVector (search.repository.ts), or the planner
 * cannot use the index.
 * A common word matches a large share of the messages; the newest matches of such a word are found
 * by reading the workspace's messages newest first, hence (workspace_id, timestamp DESC): a
 * message's timestamp only grows within a workspace, so its entry lands at the end of the
 * workspace's range, on a page that is already in memory.
 */
export class MessageSearch1764011720000 implements MigrationInterface {
  name = 'MessageSearch1764011720000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "messages_search_idx" ON "messages" USING gin (to_tsvector('simple'::regconfig, "content" || ' ' || "file_name")) WITH (fastupdate = on)`,
    );
    await queryRunner.query(`CREATE INDEX "messages_workspace_timestamp_idx" ON "messages" ("workspace_id", "timestamp" DESC)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."messages_workspace_timestamp_idx"`);
    await queryRunner.query(`DROP INDEX "public"."messages_search_idx"`);
  }
}
