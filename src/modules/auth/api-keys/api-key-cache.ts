import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import type { ActiveKey } from './api-key.repository.js';

// A safety net only: validity is decided by the generation check on every use.
const ENTRY_TTL_MS = 5 * 60 * 1000;
const MAX_ENTRIES = 10_000;

interface Entry {
  key: ActiveKey;
  generation: string;
  cachedAt: number;
}

/**
 * Remembers key lookups in process memory without ever letting a revoked key through: every
 * entry is stamped with a cluster-wide generation (one Redis counter), each use re-reads that
 * counter, and every revocation or subscription change increments it. A Redis GET is several
 * times cheaper than the Postgres lookup it replaces; when Redis cannot answer, nothing is
 * served from memory and the lookup goes to Postgres as if there were no cache.
 *
 * The generation is global rather than per workspace on purpose: a lookup must read it before
 * reading Postgres (so a revocation committed in between always bumps it past the stamp), and
 * before the lookup the workspace is not known yet. Revocations are rare, so the cost of
 * invalidating every entry at once is nothing.
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly generationKey: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    keys: RedisKeys,
  ) {
    this.generationKey = keys.key('api-keys', 'generation');
  }

  /** The current generation, or null when Redis cannot say (then nothing may be cached or served). */
  async generation(): Promise<string | null> {
    try {
      return (await this.redis.get(this.generationKey)) ?? '0';
    } catch {
      return null;
    }
  }

  /** The cached key when it is still valid at `now` and nothing was revoked since it was cached. */
  async get(keyHash: string, now: Date): Promise<ActiveKey | undefined> {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (now.getTime() - entry.cachedAt > ENTRY_TTL_MS || entry.key.expiresAt.getTime() <= now.getTime()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    if ((await this.generation()) !== entry.generation) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.key;
  }

  /** Stores a lookup made after reading `generation` (never one read before it). */
  remember(keyHash: string, key: ActiveKey, generation: string, now: Date): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyHash, { key, generation, cachedAt: now.getTime() });
  }

  /** Makes every cached key on every process invalid; throws when Redis cannot be reached. */
  async invalidate(): Promise<void> {
    await this.redis.incr(this.generationKey);
  }
}
