import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { MailModule } from '../../infra/mail/mail.module.js';
import { TenantsModule } from '../tenants/tenants.module.js';
import { AccountEmailService } from './accounts/account-email.service.js';
import { AccountService } from './accounts/account.service.js';
import { AuthController } from './accounts/auth.controller.js';
import { BackgroundWork } from './accounts/background-work.js';
import { EmailTokenRepository } from './accounts/email-token.repository.js';
import { PasswordHasher } from './accounts/password-hasher.js';
import { UserRepository } from './accounts/user.repository.js';
import { ApiKeyCache } from './api-keys/api-key-cache.js';
import { ApiKeyRepository } from './api-keys/api-key.repository.js';
import { ApiKeyService } from './api-keys/api-key.service.js';
import { ApiKeyStrategy } from './api-keys/api-key.strategy.js';
import { ApiKeysController } from './api-keys/api-keys.controller.js';
import { ClockModule } from './clock/clock.module.js';
import { ContactController } from './contact/contact.controller.js';
import { ContactService } from './contact/contact.service.js';
import { GoogleFlowSealer } from './google/google-flow-sealer.js';
import { GoogleOidcClient } from './google/google-oidc.client.js';
import { GooglePendingRepository } from './google/google-pending.repository.js';
import { GoogleSignInController } from './google/google-sign-in.controller.js';
import { GoogleSignInService } from './google/google-sign-in.service.js';
import { GoogleSignupService } from './google/google-signup.service.js';
import { ApiKeyGuard } from './guards/api-key.guard.js';
import { ConsoleOnlyGuard } from './guards/console-only.guard.js';
import { CsrfGuard } from './guards/csrf.guard.js';
import { ReadOnlyGuard } from './guards/read-only.guard.js';
import { RolesGuard } from './guards/roles.guard.js';
import { SessionGuard } from './guards/session.guard.js';
import { SubscriptionGuard } from './guards/subscription.guard.js';
import { TenantGuard } from './guards/tenant.guard.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimiter } from './rate-limit/rate-limiter.service.js';
import { SessionRepository } from './sessions/session.repository.js';
import { SessionService } from './sessions/session.service.js';

/**
 * The global guard chain, in the order of docs/api.md#check-order: Nest runs APP_GUARD providers
 * in registration order. Every route is covered; `@Public()` is the only way out.
 * RateLimitGuard runs first because the rate-limited routes are public (no auth work before it);
 * CsrfGuard runs right after SessionGuard, the first point where a cookie principal is known.
 */
const GUARD_CHAIN = [RateLimitGuard, ApiKeyGuard, SessionGuard, CsrfGuard, ConsoleOnlyGuard, ReadOnlyGuard, TenantGuard, RolesGuard, SubscriptionGuard];

@Module({
  imports: [TenantsModule, MailModule, ClockModule],
  controllers: [ApiKeysController, AuthController, GoogleSignInController, ContactController],
  providers: [
    SessionRepository,
    SessionService,
    ApiKeyRepository,
    ApiKeyCache,
    ApiKeyService,
    ApiKeyStrategy,
    UserRepository,
    EmailTokenRepository,
    AccountService,
    AccountEmailService,
    PasswordHasher,
    BackgroundWork,
    GoogleOidcClient,
    GoogleFlowSealer,
    GooglePendingRepository,
    GoogleSignInService,
    GoogleSignupService,
    ContactService,
    RateLimiter,
    ...GUARD_CHAIN.map((guard) => ({ provide: APP_GUARD, useClass: guard })),
  ],
  exports: [SessionService, ApiKeyService, ApiKeyCache],
})
export class AuthModule {}
