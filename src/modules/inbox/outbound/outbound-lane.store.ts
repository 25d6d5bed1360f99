import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import type { SendSettings } from './send-settings.js';

/** How long a lane's pump keeps it without renewing: a dead worker's lane is free after this. */
export const LANE_HOLD_MS = 15_000;

// The pump's hold on a lane: taken if free or already its own, renewed, given back.
const HOLD = `
local held = redis.call('GET', KEYS[1])
if held == false or held == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/*
 * The number's next send time, reserved atomically, so every process that sends for the number
 * shares one pace: never closer than the gap (min + the jitter drawn for this send) to the last
 * send, and within a token bucket of `burst` refilled at `per_minute`. ARGV: now, not before,
 * gap, tokens per ms, burst. Answers the reserved time (ms epoch).
 */
const RESERVE = `
local now = tonumber(ARGV[1])
local notBefore = tonumber(ARGV[2])
local gap = tonumber(ARGV[3])
local rate = tonumber(ARGV[4])
local burst = tonumber(ARGV[5])
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '-1')
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or ARGV[5])
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or ARGV[1])
local t = math.max(now, notBefore)
if last >= 0 then t = math.max(t, last + gap) end
local available = math.min(burst, tokens + math.max(0, t - at) * rate)
if available < 1 then
  t = t + (1 - available) / rate
  available = 1
end
t = math.ceil(t)
redis.call('HSET', KEYS[1], 'last', t, 'tokens', available - 1, 'at', t)
redis.call('PEXPIRE', KEYS[1], 86400000)
return t`;

// A send went out at ARGV[1]: the next gap counts from then (a send that took long to encrypt or
// upload must not leave the next one closer than the gap to it, as the contact receives them).
const SENT = `
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
if tonumber(ARGV[1]) > last then redis.call('HSET', KEYS[1], 'last', ARGV[1]) end
return 1`;

/**
 * Time added to every gap for the way to the contact: two sends leave the service at least the
 * gap apart, and arrive so even when the first took a little longer on the way.
 */
export const TRANSIT_MARGIN_MS = 25;

/**
 * A number's outbound lane in Redis (docs/sending.md): who pumps it (one pump cluster-wide, held
 * with a renewed token) and its pace (the time of its next send).
 */
@Injectable()
export class OutboundLaneStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Takes the lane for `token` (or renews it when it is the token's already); false when another pump has it. */
  async hold(workspaceId: string, token: string): Promise<boolean> {
    return (await this.redis.eval(HOLD, 1, this.keys.key('lane', workspaceId, 'pump'), token, LANE_HOLD_MS)) === 1;
  }

  async release(workspaceId: string, token: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.keys.key('lane', workspaceId, 'pump'), token);
  }

  /**
   * Reserves the number's next send, at `notBefore` (ms epoch) at the earliest. Answers when it
   * may go; the next reservation counts from it.
   */
  async reserve(workspaceId: string, settings: SendSettings, notBefore: number, random: () => number = Math.random): Promise<number> {
    const gap = settings.minGapMs + (settings.minGapMs > 0 ? TRANSIT_MARGIN_MS : 0) + Math.floor(random() * (settings.jitterMs + 1));
    const at = await this.redis.eval(
      RESERVE,
      1,
      this.keys.key('lane', workspaceId, 'pace'),
      Date.now(),
      Math.ceil(notBefore),
      gap,
      settings.perMinute / 60_000,
      settings.burst,
    );
    return Number(at);
  }

  /** The send reserved last went out now: the next gap counts from here. */
  async sent(workspaceId: string, at: number): Promise<void> {
    await this.redis.eval(SENT, 1, this.keys.key('lane', workspaceId, 'pace'), at);
  }
}
