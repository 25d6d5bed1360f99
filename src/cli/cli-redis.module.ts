import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppConfig } from '../infra/config/app-config.js';
import { createRedis, REDIS, RedisKeys } from '../infra/redis/redis.module.js';

@Injectable()
class CliRedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    // Every command has had its reply by now; `quit` would first connect a client never used.
    this.redis.disconnect();
  }
}

/**
 * The CLI's Redis, in place of the service's RedisModule. It connects only when a command sends
 * something (`subscription`, which must tell every replica's API key cache), so the other commands
 * work while Redis is down. A failure reaches the command that sent something, as its rejection;
 * the connection's own error listener (createRedis) keeps ioredis from printing `[ioredis]
 * Unhandled error event` on stderr, where the CLI prints exactly one `{"error": ...}` object.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig): Redis => createRedis(config, { lazyConnect: true }),
    },
    RedisKeys,
    CliRedisLifecycle,
  ],
  exports: [REDIS, RedisKeys],
})
export class CliRedisModule {}
