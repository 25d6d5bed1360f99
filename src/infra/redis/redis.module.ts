import { Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import { AppConfig } from '../config/app-config.js';
import { throttledWarning } from '../logging/throttled-warning.js';

/** Injection token of the shared command connection. */
export const REDIS = Symbol('REDIS');

const warn = throttledWarning(new Logger('Redis'));

/**
 * A Redis connection with the service's settings. Its errors (each failed reconnect while Redis is
 * away) are logged as one structured line a minute: without a listener ioredis prints every one
 * with a stack trace to stderr.
 */
export function createRedis(config: AppConfig, options: RedisOptions = {}): Redis {
  const redis = new Redis(config.redisUrl, {
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
  redis.on('error', (error: Error) => warn(options.connectionName ?? 'redis', error));
  return redis;
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
  providers: [{ provide: REDIS, inject: [AppConfig], useFactory: (config: AppConfig) => createRedis(config) }, RedisKeys, RedisLifecycle],
  exports: [REDIS, RedisKeys],
})
export class RedisModule {}
