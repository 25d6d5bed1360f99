import type pg from 'pg';
import type { DataSource } from 'typeorm';

/**
 * What code running inside an inbox transaction may do: run SQL on the transaction's connection.
 * `name` makes it a prepared statement, parsed and planned once per connection, which is most
 * of the cost of the ingest statements at thousands of messages per second.
 */
export interface SqlExecutor {
  query<T>(sql: string, params?: unknown[], name?: string): Promise<T[]>;
}

// Connections whose session has been set up for the prepared ingest statements.
const prepared = new WeakSet<pg.PoolClient>();

/**
 * The ingest statements are large CTEs: planning one costs more than running it (about 1 ms
 * against 0.3 ms), and Postgres keeps re-planning a prepared statement while its generic plan
 * looks costlier than its custom ones. Every lookup in them is by a unique key, so the generic
 * plan is as good, and it is re-made whenever autovacuum refreshes the tables' statistics. The
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
});

/**
 * Runs `work` in one transaction on a connection of TypeORM's own pool (same settings, same
 * limits), talking to node-postgres directly: the hot ingest path needs prepared statements,
 * which TypeORM's query API cannot name.
 */
export async function inTransaction<T>(db: DataSource, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const runner = db.createQueryRunner();
  const client = (await runner.connect()) as pg.PoolClient;
  try {
    await prepareSession(client);
    await client.query('BEGIN');
    const result = await work(executorOf(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
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
