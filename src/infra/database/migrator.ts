import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { ensureDatabase } from './ensure-database.js';
import { withMigrationContext } from './migration-context.js';

// Arbitrary constant: every process of this service agrees on it, so an api and a worker that
// start together do not apply the same migration twice.
const MIGRATION_LOCK_ID = 727274_1;

/** What a start-up did to its database: created it or found it, and the migrations it applied. */
export interface DatabasePreparation {
  created: boolean;
  /** Names of the migrations applied now, oldest first; empty: the schema was up to date. */
  applied: string[];
}

/**
 * Creates the database if needed and applies pending migrations under an advisory lock; the
 * names of those applied. `encryptionKey` (the service's root key) lets data migrations seal
 * what they create.
 */
export async function migrateDatabase(url: string, options: { encryptionKey?: Buffer } = {}): Promise<string[]> {
  return (await prepareDatabase(url, options)).applied;
}

/** `migrateDatabase`, also telling whether the database had to be created. */
export async function prepareDatabase(url: string, options: { encryptionKey?: Buffer } = {}): Promise<DatabasePreparation> {
  const created = await ensureDatabase(url);
  const dataSource = new DataSource(dataSourceOptions(url, [], { extra: { max: 1 } }));
  await dataSource.initialize();
  try {
    await dataSource.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const applied = await withMigrationContext(options, () => dataSource.runMigrations({ transaction: 'each' }));
      return { created, applied: applied.map((m) => m.name) };
    } finally {
      await dataSource.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await dataSource.destroy();
  }
}
