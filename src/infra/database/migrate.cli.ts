import 'reflect-metadata';
import { loadConfig, loadDotEnv } from '../config/app-config.js';
import { migrateDatabase } from './migrator.js';

loadDotEnv();
const config = loadConfig();
const applied = await migrateDatabase(config.databaseUrl, { encryptionKey: config.encryptionKey });
console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
