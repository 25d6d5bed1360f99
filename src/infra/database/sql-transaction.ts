import type pg from 'pg';
import type { DataSource } from 'typeorm';
import type { SqlExecutor } from './sql-executor.js';

export type { SqlExecutor } from './sql-executor.js';

// Connections whose session has been set up for the prepared ingest statements.
const prepared = new WeakSet<pg.PoolClient>();

/**
 * The ingest statements are large CTEs: planning one costs more than running it (about 1 ms
 * against 0.3 ms), and Postgres keeps re-planning a prepared statement while its generic plan
 * looks costlier than its custom ones. Every lookup in them is by a unique key, so the generic
 * plan is as good once the tables have statistics, and it is re-made whenever they are refreshed
 * (by autovacuum, or by the ingest service when its tables outgrew theirs: a plan made on an
 * empty, never-analysed table may walk another index instead, table-statistics.ts). The
 * setting only affects named prepared statements, which nothing else in the service uses; it
 * stays with the pooled session, so it is sent once per connection.
 */
async function prepareSession(client: pg.PoolClient): Promise<void> {
  if (prepared.has(client)) return;
  await client.query('SET plan_cache_mode = force_generic_plan');
  prepared.add(client);
}

const executorOf = (client: pg.PoolClient): SqlExecutor => ({
  async query<T>(text: string, values: unknown[] = [], name?: string): Promise<T[]> {
    const result = await client.query(name ? { name, text, values } : { text, values });
    return result.rows as T[];
  },
  async execute(text: string, values: unknown[] = [], name?: string): Promise<number> {
    const result = await client.query(name ? { name, text, values } : { text, values });
    return result.rowCount ?? 0;
  },
});

/** node-postgres's pipeline mode, switched per checkout (the pool's clients start without it). */
type PipelinedClient = pg.PoolClient & { pipeline: boolean };

/**
 * A transaction's statements in pipeline mode: each is written to the connection as soon as it is
 * issued, without waiting for the answers to the ones before it (Postgres still runs them in
 * order). Every statement is tracked, so that the transaction commits only when all succeeded,
 * and so that the error raised is the first statement's to fail: the ones after it fail only
 * because the transaction was aborted (25P02), which says nothing, where the first says why
 * (a deadlock or unique violation to retry, a NUL byte to refuse).
 */
class PipelinedExecutor implements SqlExecutor {
  private readonly issued: Promise<pg.QueryResult>[] = [];
  private ended: string | undefined;

  constructor(private readonly client: PipelinedClient) {}

  query<T>(text: string, values: unknown[] = [], name?: string): Promise<T[]> {
    const rows = this.send(name ? { name, text, values } : { text, values }).then((result) => result.rows as T[]);
    // A caller that gave up on the transaction (it threw on an earlier statement) may never await
    // this one: its rejection (the aborted transaction's) must not be an unhandled one.
    rows.catch(() => undefined);
    return rows;
  }

  execute(text: string, values: unknown[] = [], name?: string): Promise<number> {
    const count = this.send(name ? { name, text, values } : { text, values }).then((result) => result.rowCount ?? 0);
    count.catch(() => undefined);
    return count;
  }

  send(query: string | pg.QueryConfig): Promise<pg.QueryResult> {
    // After COMMIT or ROLLBACK went out, a statement would run outside the transaction (and
    // answers still due when the connection goes back to the pool would reach its next user).
    if (this.ended) return Promise.reject(new Error(`statement issued after the transaction's ${this.ended}`));
    const sent = this.client.query(query);
    sent.catch(() => undefined);
    this.issued.push(sent);
    return sent;
  }

  /** Sends COMMIT or ROLLBACK, the last statement of the transaction: nothing goes out after it. */
  end(command: 'COMMIT' | 'ROLLBACK'): Promise<pg.QueryResult> {
    const sent = this.send(command);
    this.ended = command;
    return sent;
  }

  /** Waits for every statement issued so far; answers the first failure in issue order, if any. */
  async firstFailure(): Promise<{ error: unknown } | undefined> {
    for (const outcome of await Promise.allSettled(this.issued)) if (outcome.status === 'rejected') return { error: outcome.reason };
    return undefined;
  }
}

/**
 * What a pipelined transaction's work answers: `tail` settles with the answers of its last
 * statements (see below). Keep JavaScript that could fail out of it: it runs after COMMIT went
 * out, so its failure cannot undo the transaction (the caller gets the error all the same).
 */
export interface PipelinedWork<T> {
  tail: Promise<T>;
}

/**
 * Runs `work` in one transaction on a connection of TypeORM's own pool (same settings, same
 * limits), talking to node-postgres directly: the hot ingest path needs prepared statements,
 * which TypeORM's query API cannot name. The connection is in pipeline mode meanwhile, so BEGIN
 * travels with the first statement instead of costing a round trip of its own.
 */
export async function inTransaction<T>(db: DataSource, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  return inPipelinedTransaction(db, async (tx) => ({ tail: Promise.resolve(await work(tx)) }));
}

/**
 * `inTransaction` for work that issues its last statements without waiting for their answers:
 * `work` resolves once every statement that must be in the transaction has been issued, with the
 * `tail` that settles when they are answered. COMMIT is issued right then, behind them on the
 * wire: it reaches Postgres while they still run, which saves the group commit a round trip and
 * its row locks that long. The transaction commits only if every statement succeeded (Postgres
 * answers a COMMIT of an aborted transaction with ROLLBACK); otherwise it is rolled back and the
 * first failure raised (it replaces whatever `work` threw: work cannot recover from a failed
 * statement, e.g. with a savepoint, which nothing in the inbox does). Statements issued after
 * COMMIT or ROLLBACK went out are refused.
 */
export async function inPipelinedTransaction<T>(db: DataSource, work: (tx: SqlExecutor) => Promise<PipelinedWork<T>>): Promise<T> {
  const runner = db.createQueryRunner();
  const client = (await runner.connect()) as PipelinedClient;
  try {
    await prepareSession(client);
    // A checked-out client is idle (no statement in flight), which is when the mode may change.
    client.pipeline = true;
    const tx = new PipelinedExecutor(client);
    try {
      // Tracked with the transaction's statements: a failure surfaces through firstFailure.
      void tx.send('BEGIN');
      const { tail } = await work(tx);
      const commit = tx.end('COMMIT');
      const [result] = await Promise.allSettled([tail]);
      const failed = await tx.firstFailure();
      if (failed) throw failed.error;
      if (result!.status === 'rejected') throw result!.reason;
      if ((await commit).command !== 'COMMIT') throw new Error('the transaction was rolled back');
      return result!.value;
    } catch (error) {
      // Whatever failed first is the cause; wait for every statement in flight, then roll back
      // (a warning only, when the COMMIT already did).
      const failed = await tx.firstFailure();
      await tx.end('ROLLBACK').catch(() => undefined);
      throw failed ? failed.error : error;
    } finally {
      client.pipeline = false;
    }
  } finally {
    await runner.release();
  }
}

/** Runs `work` on one pooled connection without an explicit transaction (each statement commits). */
export async function onConnection<T>(db: DataSource, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const runner = db.createQueryRunner();
  const client = (await runner.connect()) as pg.PoolClient;
  try {
    await prepareSession(client);
    return await work(executorOf(client));
  } finally {
    await runner.release();
  }
}
