import type { DatabasePreparation } from './migrator.js';

/**
 * What this process's start-up did to its database, for the start-up summary line: filled in by
 * DatabaseModule before the data source connects; null while nothing was checked (DB_MIGRATE_ON_START=false).
 */
export class DatabaseStartup {
  preparation: DatabasePreparation | null = null;
}
