import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../infra/config/app-config.js';
import { ConfigModule } from '../infra/config/config.module.js';
import { ENTITIES } from '../entities.js';
import { DatabaseModule } from '../infra/database/database.module.js';
import { ApiKeyCache } from '../modules/auth/api-keys/api-key-cache.js';
import { ApiKeyRepository } from '../modules/auth/api-keys/api-key.repository.js';
import { ApiKeyService } from '../modules/auth/api-keys/api-key.service.js';
import { ClockModule } from '../modules/auth/clock/clock.module.js';
import { WorkspaceRepository } from '../modules/tenants/workspaces/workspace.repository.js';
import { CliRedisModule } from './cli-redis.module.js';
import { OperatorRepository } from './operator.repository.js';
import { OperatorService } from './operator.service.js';
import { QueueInspector } from './queue-inspector.service.js';

/**
 * The operator commands and only what they need (the database, and Redis for `subscription` to
 * invalidate the API key caches and for the queue commands, which open their queues on first use),
 * so the CLI starts fast and never opens mail or workers. Tests import it into the full app to
 * call `OperatorService` and `QueueInspector`.
 */
@Module({
  imports: [ClockModule],
  providers: [OperatorRepository, OperatorService, WorkspaceRepository, ApiKeyRepository, ApiKeyCache, ApiKeyService, QueueInspector],
  exports: [OperatorService, QueueInspector],
})
export class OperatorModule {
  /** The standalone application context of `npm run cli`. */
  static forCli(config: AppConfig): DynamicModule {
    return { module: OperatorModule, imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(ENTITIES), CliRedisModule] };
  }
}
