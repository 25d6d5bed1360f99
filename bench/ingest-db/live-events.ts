import { redisCpuMs } from './cpu.js';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { createRedis, RedisKeys } from '../../src/infra/redis/redis.module.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS } from '../../src/modules/events/live-events.options.js';

/**
 * The live-event publisher as production runs it: the real `LiveEventsService` (Lua script:
 * XADD + trim + PUBLISH) on a command connection built like the app's, with the default options,
 * under a prefix of its own. A subscriber on the workspace channels (with the workspaces' watch
 * marks set) stands in for an api replica with open Consoles and counts what arrives, so the bench can check the events really went out.
 */
export interface BenchLiveEvents {
  service: LiveEventsService;
  /** Subscribes to a workspace's channel (before its phase starts). */
  listen(workspaceId: string): Promise<void>;
  /** Resolves once `count` events reached the subscriber for the workspace, or fails after a while. */
  received(workspaceId: string, count: number): Promise<void>;
  /** Redis CPU seconds so far (server-wide: other clients of the same Redis count too). */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

export async function benchLiveEvents(databaseUrl: string, redisUrl: string): Promise<BenchLiveEvents> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_PREFIX: `bench-${randomBytes(4).toString('hex')}` });
  const redis = createRedis(config);
  const subscriber: Redis = createRedis(config);
  const keys = new RedisKeys(config);
  const service = new LiveEventsService(redis, keys, DEFAULT_LIVE_EVENTS_OPTIONS);
  const counts = new Map<string, number>();
  const workspaces: string[] = [];
  subscriber.on('message', (channel: string) => counts.set(channel, (counts.get(channel) ?? 0) + 1));

  return {
    service,
    async listen(workspaceId) {
      workspaces.push(workspaceId);
      // As a stream connection does: the mark first, so ingest builds the workspace's events.
      await service.markWatched([workspaceId]);
      await subscriber.subscribe(service.channelOf(workspaceId));
    },
    async received(workspaceId, count) {
      const channel = service.channelOf(workspaceId);
      const deadline = Date.now() + 30_000;
      while ((counts.get(channel) ?? 0) < count) {
        if (Date.now() > deadline) throw new Error(`live events: ${counts.get(channel) ?? 0} of ${count} arrived`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    cpuMs: () => redisCpuMs(redis),
    async close() {
      if (workspaces.length > 0) await redis.unlink(...workspaces.flatMap((id) => [keys.key('events', id, 'stream'), keys.key('events', id, 'watched')]));
      subscriber.disconnect();
      await redis.quit();
    },
  };
}
