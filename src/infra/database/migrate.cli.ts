import 'reflect-metadata';
import { ConfigError, loadConfig, loadDotEnv } from '../config/app-config.js';
import { migrateDatabase } from './migrator.js';

// `npm run migration:run` (or `node dist/src/infra/database/migrate.cli.js` where npm is not at
// hand): one line on stderr for what went wrong, never a stack; 78 for bad configuration, as the
// service exits, 1 when the migration failed (the database unreachable, a statement refused).
loadDotEnv();
try {
  const config = loadConfig();
  const applied = await migrateDatabase(config.databaseUrl, { encryptionKey: config.encryptionKey });
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 78; // EX_CONFIG
  } else {
    const code = (error as { code?: unknown }).code;
    console.error(`migration failed: ${error instanceof Error ? error.message : String(error)}${typeof code === 'string' ? ` (${code})` : ''}`);
    process.exitCode = 1;
  }
}
