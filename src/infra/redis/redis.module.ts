import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { AppConfig } from '../config/app-config.js';

/** Injection token of the shared command connection. */
export const REDIS = Symbol('REDIS');

export function createRedis(config: AppConfig, options: RedisOptions = {}): Redis {
  return new Redis(config.redisUrl, {
    // Commands fail instead of queueing forever while Redis is away; callers decide what to do.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
    // Closing while Redis is away must not hold the process open for ioredis' default 2 s.
    disconnectTimeout: 200,
    ...options,
  });
}

/** Builds namespaced keys: every key the service writes starts with `REDIS_PREFIX:`. */
@Injectable()
export class RedisKeys {
  constructor(private readonly config: AppConfig) {}

  key(...parts: string[]): string {
    return [this.config.redisPrefix, ...parts].join(':');
  }
}

@Injectable()
class RedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    { provide: REDIS, inject: [AppConfig], useFactory: (config: AppConfig) => createRedis(config) },
    RedisKeys,
    RedisLifecycle,
  ],
  exports: [REDIS, RedisKeys],
})
export class RedisModule {}
