import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';

export function dataSourceOptions(url: string, extra: Partial<DataSourceOptions> = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
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
