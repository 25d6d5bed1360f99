import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';
import { useFastTimestamptzParser } from './timestamptz-parser.js';

/** A TypeORM entity class. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity targets
export type EntityClass = Function;

/**
 * The data source settings of every process. `entities` come from the caller (`src/entities.ts`
 * gathers the feature modules' lists), so this plumbing knows no feature; running migrations
 * needs none (they are plain SQL).
 */
export function dataSourceOptions(url: string, entities: readonly EntityClass[], extra: Partial<DataSourceOptions> = {}): DataSourceOptions {
  // node-postgres's type parsers are per process; every data source of it reads timestamps so.
  useFastTimestamptzParser();
  return {
    type: 'postgres',
    url,
    entities: [...entities],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // Fail fast when Postgres is unreachable instead of hanging requests (and health checks).
    uuidExtension: 'pgcrypto',
    extra: { max: 10, connectionTimeoutMillis: 3000, idleTimeoutMillis: 30000 },
    ...extra,
  } as DataSourceOptions;
}
