import { Injectable } from '@nestjs/common';
import { Clock } from '../clock/clock.js';
import { RATE_LIMIT_GROUPS, RATE_LIMIT_WINDOW_MS, type RateLimitGroup } from './rate-limit.decorator.js';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

// Sweeping every key now and then keeps memory bounded by the clients of the last minute, not
// by every IP ever seen.
const SWEEP_INTERVAL_MS = RATE_LIMIT_WINDOW_MS;

/**
 * Sliding-window log per (group, client IP), in process memory as the contract says: the
 * timestamps of the accepted requests of the last minute. A refused request does not take a
 * slot, so a client that keeps retrying is let in again one minute after its earliest attempt.
 */
@Injectable()
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep: number;

  constructor(private readonly clock: Clock) {
    this.lastSweep = clock.now();
  }

  hit(group: RateLimitGroup, clientIp: string): RateLimitDecision {
    const now = this.clock.now();
    this.sweepIfDue(now);
    const key = `${group}|${clientIp}`;
    const since = now - RATE_LIMIT_WINDOW_MS;
    const recent = (this.hits.get(key) ?? []).filter((at) => at > since);
    if (recent.length >= RATE_LIMIT_GROUPS[group].limit) {
      this.hits.set(key, recent);
      // The oldest hit leaves the window first; round up so a client that waits that long is let in.
      const freesAt = recent[0]! + RATE_LIMIT_WINDOW_MS;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { allowed: true };
  }

  /** Forgets everything (tests, or an operator after an incident). */
  reset(): void {
    this.hits.clear();
  }

  private sweepIfDue(now: number): void {
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    const since = now - RATE_LIMIT_WINDOW_MS;
    for (const [key, times] of this.hits) {
      if (times[times.length - 1]! <= since) this.hits.delete(key);
    }
  }
}
