import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import type { Logger } from 'pino';
import { ENTITIES } from './entities.js';
import { AppConfig } from './infra/config/app-config.js';
import { ConfigModule } from './infra/config/config.module.js';
import { CryptoModule } from './infra/crypto/crypto.module.js';
import { DatabaseModule } from './infra/database/database.module.js';
import { HttpDrain } from './infra/http/http-drain.js';
import { AllExceptionsFilter } from './infra/http/all-exceptions.filter.js';
import { DeferredInputInterceptor } from './infra/http/deferred-input.interceptor.js';
import { createValidationPipe } from './infra/http/validation.pipe.js';
import { LoggingModule } from './infra/logging/logging.module.js';
import { MetricsModule } from './infra/metrics/metrics.module.js';
import { QueueModule } from './infra/queue/queue.module.js';
import { RedisModule } from './infra/redis/redis.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { EventsModule } from './modules/events/events.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { ChatModule } from './modules/chat/chat.module.js';
import { ContentModule } from './modules/content/content.module.js';
import { InboxModule } from './modules/inbox/inbox.module.js';
import { MediaModule } from './modules/media/media.module.js';
import { MetricsHttpModule } from './modules/metrics/metrics.module.js';
import { MetaModule } from './modules/meta/meta.module.js';
import { ReportsModule } from './modules/reports/reports.module.js';
import { TenantsModule } from './modules/tenants/tenants.module.js';
import { WebhooksModule } from './modules/webhooks/webhooks.module.js';

@Module({})
export class AppModule {
  /**
   * The whole application for one configuration. `main.ts` builds it from the environment (and
   * hands over the process's root logger); tests build it with their own database and Redis prefix.
   */
  static forRoot(config: AppConfig, rootLogger?: Logger): DynamicModule {
    const infra: (Type | DynamicModule)[] = [
      ConfigModule.forRoot(config),
      LoggingModule.forRoot(rootLogger),
      MetricsModule,
      DatabaseModule.forRoot(ENTITIES),
      RedisModule,
      QueueModule,
      CryptoModule,
    ];
    const features: Type[] = [
      HealthModule,
      AuthModule,
      TenantsModule,
      EventsModule,
      InboxModule,
      MediaModule,
      ChatModule,
      WebhooksModule,
      ContentModule,
      MetaModule,
      MetricsHttpModule,
      ReportsModule,
    ];
    const providers: Provider[] = [
      { provide: APP_FILTER, useClass: AllExceptionsFilter },
      // Body and text refusals kept by the HTTP plumbing, raised after the guard chain.
      { provide: APP_INTERCEPTOR, useClass: DeferredInputInterceptor },
      { provide: APP_PIPE, useFactory: createValidationPipe },
      HttpDrain,
    ];
    return { module: AppModule, imports: [...infra, ...features], providers };
  }
}
