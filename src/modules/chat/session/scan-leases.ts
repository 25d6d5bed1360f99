import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';

// Extends each lease still holding its token (ARGV[i + 1]); answers 1/0 per key. One round trip
// for every session of a worker, and a lease taken over by someone else is never extended.
const RENEW = `
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out`;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * One socket per number in the whole cluster: a worker may open a workspace's socket only while
 * it holds the workspace's lease (`SET NX PX`, renewed by compare-and-extend). A holder that stops
 * renewing (crashed, partitioned) loses it after the TTL and another worker takes over.
 */
@Injectable()
export class ScanLeases {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * A new lease token of `processId`. Each hold has its own token, so releasing an old hold can
   * never delete a newer one taken by the same process.
   */
  static token(processId: string): string {
    return `${processId}/${randomBytes(6).toString('hex')}`;
  }

  /** The process a token belongs to (the address of its control channel). */
  static processOf(token: string): string {
    return token.split('/')[0]!;
  }

  async acquire(workspaceId: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.key(workspaceId), token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** Extends every hold still valid; answers the workspaces whose lease was lost. */
  async renew(holds: readonly { workspaceId: string; token: string }[], ttlMs: number): Promise<string[]> {
    if (holds.length === 0) return [];
    const keys = holds.map((hold) => this.key(hold.workspaceId));
    const held = (await this.redis.eval(RENEW, keys.length, ...keys, ttlMs, ...holds.map((hold) => hold.token))) as number[];
    return holds.filter((_, i) => held[i] !== 1).map((hold) => hold.workspaceId);
  }

  async release(workspaceId: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key(workspaceId), token);
  }

  /** The token of the hold on the workspace's socket, if any. */
  holder(workspaceId: string): Promise<string | null> {
    return this.redis.get(this.key(workspaceId));
  }

  key(workspaceId: string): string {
    return this.keys.key('chat', 'lease', workspaceId);
  }
}
