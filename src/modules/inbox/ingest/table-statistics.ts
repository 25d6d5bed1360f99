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
 * Runs `ANALYZE contacts, conversations` in the background, at most one at a time: a request
 * while one runs queues one more, so a burst of imports costs two. Failures are logged; the
 * autovacuum daemon does the same job later anyway.
 */
export class TableStatistics {
  private readonly logger = new Logger('TableStatistics');
  private running: Promise<void> | null = null;
  private again = false;

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

  /** Resolves when no refresh runs (tests). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}
