// What the service asked of Postgres and Redis over a step, per message: transactions committed
// (pg_stat_database of the run's own database) and commands processed (Redis' INFO stats; the
// run's Redis serves only the service's processes, the floor uses none). Each is a round trip and
// a socket write or more in the worker: the CPU profile of the half step put a quarter of the
// worker's CPU in those writes (bench/journal/system.md).
import { Redis } from 'ioredis';
import type pg from 'pg';
import { sleep } from './proc-stats.js';

interface Counters {
  commits: number;
  rowsWritten: number;
  commands: number;
}

export class RoundTrips {
  private before: Counters | undefined;

  constructor(
    private readonly db: pg.Pool,
    private readonly database: string,
    private readonly redisUrl: string,
  ) {}

  private async read(): Promise<Counters> {
    // Postgres publishes a backend's counters when its transaction ends or within a second of idling.
    await sleep(1500);
    const { rows } = await this.db.query<{ commits: string; written: string }>(
      'SELECT xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS written FROM pg_stat_database WHERE datname = $1',
      [this.database],
    );
    const redis = new Redis(this.redisUrl);
    const info = await redis.info('stats');
    redis.disconnect();
    return {
      commits: Number(rows[0]?.commits ?? 0),
      rowsWritten: Number(rows[0]?.written ?? 0),
      commands: Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0),
    };
  }

  async start(): Promise<void> {
    this.before = await this.read();
  }

  /** Per message of the step, since `start` (the reads' own few statements and commands included). */
  async per(messages: number): Promise<string> {
    const after = await this.read();
    const before = this.before!;
    const each = (n: number): string => (n / Math.max(1, messages)).toFixed(2);
    return (
      `${each(after.commits - before.commits)} Postgres transactions, ${each(after.rowsWritten - before.rowsWritten)} rows written, ` +
      `${each(after.commands - before.commands)} Redis commands per message`
    );
  }
}
