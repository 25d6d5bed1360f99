// The TypeORM data source used by the TypeORM CLI (`npm run migration:generate`).
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig, loadDotEnv } from './src/infra/config/app-config.js';
import { ENTITIES } from './src/entities.js';
import { dataSourceOptions } from './src/infra/database/data-source-options.js';

loadDotEnv();
export default new DataSource(dataSourceOptions(loadConfig().databaseUrl, ENTITIES));
