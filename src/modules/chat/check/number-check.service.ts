import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ApiError } from '../../../infra/http/api-error.js';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import { TOO_MANY_ATTEMPTS } from '../../auth/rate-limit/rate-limit.decorator.js';
import { INVALID_PHONE } from '../../inbox/dto/phone-number.decorator.js';
import { normalizePhone } from '../../inbox/jid.js';
import { LOOKUP_TIMEOUT_TEXT, ScanLookupTimeoutError, ScanNotConnectedError, ScanSessions } from '../session/scan-sessions.port.js';
import type { NumberCheckResponse } from './dto/number-check.dto.js';
import { NumberCheckRepository, type StoredNumberCheck } from './number-check.repository.js';

/** Live checks (asked of WhatsApp, not answered from the cache) per workspace and minute. */
export const LIVE_CHECKS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;
/** How long an answer is reused: a number on WhatsApp rarely leaves it; one that is not may join soon. */
export const FRESH_WHEN_EXISTS_MS = 7 * 24 * 3_600_000;
export const FRESH_WHEN_MISSING_MS = 6 * 3_600_000;
const NOT_CONNECTED = 'chat is not connected';

// A fixed window per workspace: the first live check of a window starts its minute.
const TAKE = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

export interface NumberCheck extends StoredNumberCheck {
  /** Answered from the cache. */
  cached: boolean;
}

/**
 * Whether a phone is on WhatsApp, for the number's workspace: from the cache while its answer is
 * fresh, else asked of WhatsApp through the number's socket. Checking many numbers is what
 * WhatsApp watches for in spam tools, so live checks are limited per workspace; the inbox's own
 * check before a first message does not count (it is bounded by the first-contact cap).
 */
@Injectable()
export class NumberCheckService {
  constructor(
    private readonly checks: NumberCheckRepository,
    private readonly sessions: ScanSessions,
    private readonly keys: RedisKeys,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** `GET /api/chat/check?phone=`. */
  async check(workspaceId: string, raw: unknown): Promise<NumberCheckResponse> {
    const phone = normalizePhone(typeof raw === 'string' ? raw : null);
    if (!phone) throw ApiError.badRequest(INVALID_PHONE);
    try {
      const check = await this.lookup(workspaceId, phone);
      return { phone, exists: check.exists, jid: check.jid, cached: check.cached, checked_at: check.checkedAt.toISOString() };
    } catch (error) {
      if (error instanceof ScanNotConnectedError) throw ApiError.conflict(NOT_CONNECTED);
      if (error instanceof ScanLookupTimeoutError) throw new ApiError(502, LOOKUP_TIMEOUT_TEXT);
      throw error;
    }
  }

  /**
   * The answer for `phone` (digits). Throws `ScanNotConnectedError` (no open socket and no fresh
   * answer), `ScanLookupTimeoutError`, or a 429 `ApiError` when `countsTowardLimit` and the
   * workspace used its live checks of the minute.
   */
  async lookup(workspaceId: string, phone: string, options: { countsTowardLimit?: boolean } = {}): Promise<NumberCheck> {
    const stored = await this.checks.find(workspaceId, phone);
    if (stored && isFresh(stored, Date.now())) return { ...stored, cached: true };
    // Before the budget: a refused check asks WhatsApp nothing and must not use it up.
    if (!(await this.sessions.isConnected(workspaceId))) throw new ScanNotConnectedError();
    if (options.countsTowardLimit ?? true) await this.take(workspaceId);
    const [answer] = await this.sessions.lookup(workspaceId, [phone]);
    const check: StoredNumberCheck = { phone, exists: answer?.exists ?? false, jid: answer?.exists ? answer.jid : null, checkedAt: new Date() };
    await this.checks.save(workspaceId, check);
    return { ...check, cached: false };
  }

  /** Takes one live check of the workspace's minute, or 429 with the seconds until the window resets. */
  private async take(workspaceId: string): Promise<void> {
    const [count, ttlMs] = (await this.redis.eval(TAKE, 1, this.keys.key('chat', 'checks', workspaceId), WINDOW_MS)) as [number, number];
    if (count > LIVE_CHECKS_PER_MINUTE) throw ApiError.tooMany(TOO_MANY_ATTEMPTS, ttlMs);
  }
}

function isFresh(check: StoredNumberCheck, now: number): boolean {
  return now - check.checkedAt.getTime() < (check.exists ? FRESH_WHEN_EXISTS_MS : FRESH_WHEN_MISSING_MS);
}
