import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { type EntityClass, dataSourceOptions } from './data-source-options.js';
import { migrateDatabase } from './migrator.js';

@Module({})
export class DatabaseModule {
  /** The data source with the entities of the modules the process runs (`src/entities.ts`). */
  static forRoot(entities: readonly EntityClass[]): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: async (config: AppConfig) => {
            if (config.migrateOnStart) await migrateDatabase(config.databaseUrl, { encryptionKey: config.encryptionKey });
            // Two quick retries, then fail: a database that is down at boot is reported promptly.
            return { ...dataSourceOptions(config.databaseUrl, entities), retryAttempts: 2, retryDelay: 1000 };
          },
        }),
      ],
    };
  }
}
