import 'reflect-metadata';
import { bootstrap } from './bootstrap.js';
import { ConfigError, loadConfig, loadDotEnv } from './infra/config/app-config.js';

loadDotEnv();
try {
  await bootstrap(loadConfig());
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78); // EX_CONFIG
  }
  throw error;
}
