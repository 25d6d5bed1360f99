import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { migrateDatabase } from './migrator.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        if (config.migrateOnStart) await migrateDatabase(config.databaseUrl);
        // Two quick retries, then fail: a database that is down at boot is reported promptly.
        return { ...dataSourceOptions(config.databaseUrl), retryAttempts: 2, retryDelay: 1000 };
      },
    }),
  ],
})
export class DatabaseModule {}
