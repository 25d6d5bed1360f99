import 'reflect-metadata';
import { type AppConfig, ConfigError, loadConfig, loadDotEnv } from './infra/config/app-config.js';

loadDotEnv();
let config: AppConfig;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78); // EX_CONFIG
  }
  throw error;
}

// The application is loaded only once the configuration is known to be valid, so a bad variable
// is reported at once instead of after loading every module.
const { bootstrap } = await import('./bootstrap.js');
await bootstrap(config);
