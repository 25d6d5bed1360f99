import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { type EntityClass, dataSourceOptions } from './data-source-options.js';
import { migrateDatabase } from './migrator.js';

@Module({})
export class DatabaseModule {
  /**
   * The data source with the entities of the modules the process runs (`src/entities.ts`). The
   * service creates and migrates its database at start (DB_MIGRATE_ON_START); the operator CLI
   * (`migrate: false`) never does: a typo in its DATABASE_URL must not leave a new, empty database.
   */
  static forRoot(entities: readonly EntityClass[], options: { migrate?: boolean } = {}): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: async (config: AppConfig) => {
            if (config.migrateOnStart && options.migrate !== false) await migrateDatabase(config.databaseUrl, { encryptionKey: config.encryptionKey });
            // Two quick retries, then fail: a database that is down at boot is reported promptly.
            return { ...dataSourceOptions(config.databaseUrl, entities), retryAttempts: 2, retryDelay: 1000 };
          },
        }),
      ],
    };
  }
}
