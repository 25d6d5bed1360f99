// Drops every database of this run (the template included) and deletes the run's Redis keys, then
// checks the statuses the run observed against the OpenAPI document.
import { Redis } from 'ioredis';
import pg from 'pg';
import { checkObservedStatuses } from './observed-statuses.mjs';

export default async function globalTeardown() {
  const runId = process.env.TEST_RUN_ID;
  if (!runId) return;
  const server = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`inbox\\_t\\_${runId}\\_%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }

  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `t:${runId}:*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }

  // Last, after the clean-up: fails the run (non-zero exit) listing every (operation, status) pair
  // the tests observed that the OpenAPI document does not declare.
  checkObservedStatuses(runId);
}
