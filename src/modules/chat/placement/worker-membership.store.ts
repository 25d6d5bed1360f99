import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import type { PlacementWorker } from './placement-plan.js';

/** A live worker: its weight and cap, and how many sockets it held at its last heartbeat. */
export interface WorkerMember extends PlacementWorker {
  held: number;
  /** Set while the worker shuts down: it takes nothing more and its numbers go elsewhere. */
  leaving: boolean;
}

// Heartbeat: the member's expiry in a sorted set (score = until when it is live, in Redis' own
// clock, as the leases' expiry is), its details in a hash. Reading drops the expired first, so a
// dead worker leaves the list one TTL after its last heartbeat, with its leases, whatever the
// processes' clocks say.
const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
const HEARTBEAT = `${NOW_MS}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1`;
const LIVE = `${NOW_MS}
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
for _, id in ipairs(dead) do redis.call('HDEL', KEYS[2], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local out = {}
for i, id in ipairs(ids) do out[i] = {id, redis.call('HGET', KEYS[2], id) or '{}'} end
return out`;

/**
 * The workers of the cluster (docs/operations.md, "Placement"): each worker process heartbeats
 * here as often as it renews its leases, with the same time to live, so the list and the leases
 * agree on who is alive. Every worker computes the numbers' homes from this list.
 */
@Injectable()
export class WorkerMembershipStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async heartbeat(member: WorkerMember, ttlMs: number): Promise<void> {
    const details = JSON.stringify({ capacity: member.capacity, held: member.held, leaving: member.leaving });
    await this.redis.eval(HEARTBEAT, 2, this.setKey(), this.hashKey(), member.id, ttlMs, details);
  }

  async leave(id: string): Promise<void> {
    await this.redis.multi().zrem(this.setKey(), id).hdel(this.hashKey(), id).exec();
  }

  /** The live workers, by id. */
  async live(): Promise<WorkerMember[]> {
    const rows = (await this.redis.eval(LIVE, 2, this.setKey(), this.hashKey())) as [string, string][];
    return rows.map(([id, json]) => {
      const details = JSON.parse(json) as Partial<Omit<WorkerMember, 'id'>>;
      return { id, capacity: Number(details.capacity ?? 0), held: Number(details.held ?? 0), leaving: details.leaving === true };
    });
  }

  private setKey(): string {
    return this.keys.key('chat', 'members');
  }

  private hashKey(): string {
    return this.keys.key('chat', 'member-details');
  }
}
