import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * A bulk import that creates this many conversations (a first history sync) asks for fresh
 * statistics. The live path's statements are prepared once per connection and keep a generic
 * plan (sql-transaction.ts); Postgres re-plans them when the tables they read are analysed. A
 * plan made while the tables were small reads them whole (a hash join over a sequential scan is
 * the cheapest way through a few pages), which costs a scan of every conversation per group once
 * they are thousands, until autovacuum next analyses them (up to a minute or more).
 */
export const ANALYZE_AFTER_CREATED = 1_000;

/**
 * The live path looks at its tables' statistics once per this many messages it stored (one
 * small query of the catalogue, in the background), and analyses a table that outgrew them: one
 * of at least GROWN_MIN_PAGES pages (128 kB) that was never analysed, or that is more than
 * GROWN_FACTOR times the size it had when it was (pages, as the planner counts them: the file's
 * size now against `relpages`, so no statistics collector lags behind).
 *
 * Why: a generic plan made while a table was empty and never analysed (a new database, a
 * truncated table) prices a lookup at one row whichever index it takes, so a unique-key probe is
 * a tie between the unique index and any index starting with the same column, and the tie went
 * to the other one: the `messages (workspace_id, channel, external_id)` probes (the group
 * statement's `fresh`, the repeats') walked `messages_workspace_timestamp_idx`, every message of
 * the workspace per probe, and a new chat's conversation lookup the list index. Nothing re-plans
 * it until the table is analysed, which autovacuum does a minute or more later, or never where
 * it is off; meanwhile the cost of a message grows with the table (bench:ingest's ingest(): 247
 * msg/s and 3.85 ms of Postgres CPU a message over 50,000; bench/journal/inbox-ingest.md,
 * 2026-12-03). Analysed once it holds rows, the planner knows what share of them one workspace
 * has, the unique index wins, and it keeps winning as the table grows (the estimates follow its
 * size). Where autovacuum keeps up (it analyses after a tenth of a table changed), this finds
 * nothing to do.
 */
export const CHECK_EVERY_STORED = 1_000;
export const GROWN_MIN_PAGES = 16;
export const GROWN_FACTOR = 4;

/** The tables the live path's prepared statements read, in the order they are analysed. */
const LIVE_TABLES = ['contacts', 'conversations', 'messages'] as const;

const OUTGROWN = `
SELECT relname AS "table" FROM (
  SELECT relname, reltuples, relpages, pg_relation_size(oid) / current_setting('block_size')::int AS pages
    FROM pg_class WHERE oid = ANY($1::regclass[])
) t WHERE pages >= $2 AND (reltuples < 0 OR pages > $3 * relpages)`;

/**
 * Runs `ANALYZE contacts, conversations` in the background, at most one at a time: a request
 * while one runs queues one more, so a burst of imports costs two. Failures are logged; the
 * autovacuum daemon does the same job later anyway. `stored` counts the live path's messages
 * and analyses the live tables that outgrew their statistics (CHECK_EVERY_STORED).
 */
export class TableStatistics {
  private readonly logger = new Logger('TableStatistics');
  private running: Promise<void> | null = null;
  private again = false;
  private storedSinceCheck = 0;
  private checking: Promise<void> | null = null;

  constructor(private readonly db: DataSource) {}

  refresh(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.db
      .query('ANALYZE contacts, conversations')
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ err: error }, 'could not refresh the inbox tables’ statistics'),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }

  /**
   * The live path stored `count` new messages. Every CHECK_EVERY_STORED of them, the tables that
   * outgrew their statistics are analysed (in the background; a check still running skips this one).
   */
  stored(count: number): void {
    this.storedSinceCheck += count;
    if (this.storedSinceCheck < CHECK_EVERY_STORED || this.checking) return;
    this.storedSinceCheck = 0;
    this.checking = this.analyzeOutgrown()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'could not refresh the inbox tables’ statistics'))
      .finally(() => {
        this.checking = null;
      });
  }

  private async analyzeOutgrown(): Promise<void> {
    const rows: { table: string }[] = await this.db.query(OUTGROWN, [LIVE_TABLES, GROWN_MIN_PAGES, GROWN_FACTOR]);
    // Only names of LIVE_TABLES come back (the catalogue's, matched against the list).
    const tables = LIVE_TABLES.filter((table) => rows.some((row) => row.table === table));
    if (tables.length) await this.db.query(`ANALYZE ${tables.join(', ')}`);
  }

  /** Resolves when no refresh or check runs (tests). */
  async settled(): Promise<void> {
    while (this.running || this.checking) await (this.running ?? this.checking);
  }
}
