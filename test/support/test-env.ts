import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase } from '../../src/infra/database/migrator.js';

/** Where tests find Postgres and Redis; override with TEST_DATABASE_URL / TEST_REDIS_URL. */
export const TEST_DATABASE_SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Set by global-setup and inherited by every Jest worker. */
export function testRunId(): string {
  const id = process.env.TEST_RUN_ID;
  if (!id) throw new Error('TEST_RUN_ID is not set: run the tests through `npm test`');
  return id;
}

export const databasePrefix = (runId: string): string => `inbox_t_${runId}`;
export const templateDatabase = (runId: string): string => `${databasePrefix(runId)}_tpl`;
export const redisPrefixOfRun = (runId: string): string => `t:${runId}`;

export function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// Any constant shared by all workers of a run: serialises building the template database.
const TEMPLATE_LOCK_ID = 727274_2;

/**
 * The run's migrated template: built by the first worker that needs it (under an advisory lock,
 * so the others wait) and cloned by every test file afterwards.
 */
async function ensureTemplate(runId: string): Promise<string> {
  const name = templateDatabase(runId);
  await withAdminClient(async (client) => {
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!rowCount) await migrateDatabase(databaseUrl(name));
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
    }
  });
  return name;
}

/** A fresh database cloned from the run's migrated template (fast: no migrations per file). */
export async function createTestDatabase(): Promise<{ name: string; url: string }> {
  const runId = testRunId();
  await ensureTemplate(runId);
  const name = `${databasePrefix(runId)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase(runId)}"`));
  return { name, url: databaseUrl(name) };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
