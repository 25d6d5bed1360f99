import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TenantsModule } from '../tenants/tenants.module.js';
import { ApiKeyRepository } from './api-keys/api-key.repository.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { ApiKeyStrategy } from './api-keys/api-key.strategy.js';
import { ApiKeyGuard } from './guards/api-key.guard.js';
import { ConsoleOnlyGuard } from './guards/console-only.guard.js';
import { ReadOnlyGuard } from './guards/read-only.guard.js';
import { RolesGuard } from './guards/roles.guard.js';
import { SessionGuard } from './guards/session.guard.js';
import { SubscriptionGuard } from './guards/subscription.guard.js';
import { TenantGuard } from './guards/tenant.guard.js';
import { SessionRepository } from './sessions/session.repository.js';
import { SessionService } from './sessions/session.service.js';

/**
 * The global guard chain, in the order of api.md ("Check order"): Nest runs APP_GUARD providers
 * in registration order. Every route is covered; `@Public()` is the only way out.
 */
const GUARD_CHAIN = [ApiKeyGuard, SessionGuard, ConsoleOnlyGuard, ReadOnlyGuard, TenantGuard, RolesGuard, SubscriptionGuard];

@Module({
  imports: [PassportModule, TenantsModule],
  providers: [
    SessionRepository,
    SessionService,
    ApiKeyRepository,
    ApiKeyService,
    ApiKeyStrategy,
    ...GUARD_CHAIN.map((guard) => ({ provide: APP_GUARD, useClass: guard })),
  ],
  exports: [SessionService, ApiKeyService],
})
export class AuthModule {}
