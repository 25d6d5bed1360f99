import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../infra/config/app-config.js';
import { ConfigModule } from '../infra/config/config.module.js';
import { CryptoModule } from '../infra/crypto/crypto.module.js';
import { ENTITIES } from '../entities.js';
import { DatabaseModule } from '../infra/database/database.module.js';
import { ApiKeyCache } from '../modules/auth/api-keys/api-key-cache.js';
import { ApiKeyRepository } from '../modules/auth/api-keys/api-key.repository.js';
import { ApiKeyService } from '../modules/auth/api-keys/api-key.service.js';
import { AccessRevocations } from '../modules/events/access-revocations.js';
import { ClockModule } from '../modules/auth/clock/clock.module.js';
import { WorkspaceHooksModule } from '../modules/tenants/workspaces/workspace-hooks.module.js';
import { WorkspaceRepository } from '../modules/tenants/workspaces/workspace.repository.js';
import { WebhookSecretsModule } from '../modules/webhooks/secret/webhook-secrets.module.js';
import { CliRedisModule } from './cli-redis.module.js';
import { CliSessionsModule } from './cli-sessions.module.js';
import { OperatorRepository } from './operator.repository.js';
import { OperatorService } from './operator.service.js';
import { QueueInspector } from './queue-inspector.service.js';

/**
 * The operator commands and only what they need (the database, Redis for `subscription` to
 * invalidate the API key caches and for the queue commands, which open their queues on first use,
 * and the webhook secrets every new workspace gets), so the CLI starts fast and never opens mail
 * or workers. Tests import it into the full app to call `OperatorService` and `QueueInspector`.
 */
@Module({
  imports: [ClockModule, WorkspaceHooksModule, WebhookSecretsModule],
  providers: [OperatorRepository, OperatorService, WorkspaceRepository, ApiKeyRepository, ApiKeyCache, ApiKeyService, AccessRevocations, QueueInspector],
  exports: [OperatorService, QueueInspector],
})
export class OperatorModule {
  /**
   * The standalone application context of `npm run cli`; with `sessions` (the session commands
   * only, so the others never open the control bus's Redis connection) the scan channel's controls.
   */
  static forCli(config: AppConfig, options: { sessions?: boolean } = {}): DynamicModule {
    return {
      module: OperatorModule,
      imports: [
        ConfigModule.forRoot(config),
        CryptoModule,
        DatabaseModule.forRoot(ENTITIES, { migrate: false }),
        CliRedisModule,
        ...(options.sessions ? [CliSessionsModule] : []),
      ],
    };
  }
}
