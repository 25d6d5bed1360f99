import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { type EntityClass, dataSourceOptions } from './data-source-options.js';
import { DatabaseStartup } from './database-startup.js';
import { prepareDatabase } from './migrator.js';

@Module({})
export class DatabaseModule {
  /**
   * The data source with the entities of the modules the process runs (`src/entities.ts`). The
   * service creates and migrates its database at start (DB_MIGRATE_ON_START); the operator CLI
   * (`migrate: false`) never does: a typo in its DATABASE_URL must not leave a new, empty database.
   */
  static forRoot(entities: readonly EntityClass[], options: { migrate?: boolean } = {}): DynamicModule {
    // Filled in by the data source's factory, which runs in TypeORM's module (so it is captured here).
    const startup = new DatabaseStartup();
    return {
      module: DatabaseModule,
      providers: [{ provide: DatabaseStartup, useValue: startup }],
      exports: [DatabaseStartup],
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: async (config: AppConfig) => {
            if (config.migrateOnStart && options.migrate !== false) {
              startup.preparation = await prepareDatabase(config.databaseUrl, { encryptionKey: config.encryptionKey });
            }
            // Two quick retries, then fail: a database that is down at boot is reported promptly.
            return { ...dataSourceOptions(config.databaseUrl, entities), retryAttempts: 2, retryDelay: 1000 };
          },
        }),
      ],
    };
  }
}
