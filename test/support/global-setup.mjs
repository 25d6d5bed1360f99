// Once per `npm test`: picks a run id, inherited by every Jest worker, so that parallel or repeated
// runs never share a database or a Redis key, fails early when Postgres or Redis is down, and
// builds the Console when it is stale.
// (Plain JS: Jest loads this file outside its ESM module mapping.)
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildConsoleIfNeeded } from '../../scripts/build-console-if-needed.mjs';

export default async function globalSetup() {
  process.env.TEST_RUN_ID ??= `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

  const database = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: database, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Postgres is not reachable at ${database}: ${error.message}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }

  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${redisUrl}: ${error.message}`, { cause: error });
  } finally {
    redis.disconnect();
  }

  // The browser tests (test/console) drive the built Console; building takes about a second and
  // happens only when console/ changed since the last build.
  buildConsoleIfNeeded();
}
