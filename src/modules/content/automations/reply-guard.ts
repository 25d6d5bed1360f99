import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';

/** docs/content.md#automations: at most 5 automated replies per conversation per minute. */
export const AUTOMATED_REPLIES_PER_MINUTE = 5;
const WINDOW_MS = 60_000;

/**
 * A sliding window per conversation (a sorted set of reply times): drop what is older than the
 * window, refuse when the window is full, else record this reply. One script, so concurrent jobs
 * of several workers cannot both take the last slot.
 */
const TAKE_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * The loop guard of automated replies: two automations (or an automation and a bot on the other
 * side) answering each other would otherwise exchange messages forever.
 */
@Injectable()
export class ReplyGuard {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Takes one of the conversation's reply slots; false when the last minute used them all. */
  async take(conversationId: string, replyId: string, now = Date.now()): Promise<boolean> {
    const key = this.keys.key('automations', 'replies', conversationId);
    const taken = await this.redis.eval(TAKE_SLOT, 1, key, now, WINDOW_MS, AUTOMATED_REPLIES_PER_MINUTE, replyId);
    return taken === 1;
  }
}
