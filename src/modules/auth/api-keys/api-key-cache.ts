import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import type { ActiveKey } from './api-key.repository.js';

// A safety net only: validity is decided by the generation check on every use.
const ENTRY_TTL_MS = 5 * 60 * 1000;
// How long a process trusts a generation read, counted from when the read was sent.
export const GENERATION_TRUST_MS = 100;
// How long `invalidate()` waits after its write: longer than the trust, with room for timer lag.
const INVALIDATION_SETTLE_MS = 150;
const MAX_ENTRIES = 10_000;

interface Lease {
  sentAt: number;
  generation: Promise<string | null>;
  /** The answer, once it arrived (undefined while the read is on its way). */
  answer?: { generation: string | null };
}

interface Entry {
  key: ActiveKey;
  generation: string;
  cachedAt: number;
}

/**
 * Remembers key lookups in process memory without ever letting a revoked key through once its
 * revocation has been answered. Every entry is stamped with a cluster-wide generation (one Redis
 * key) that every revocation or subscription change replaces, and an entry is served only while
 * its stamp is the current generation.
 *
 * "Current" is a lease (Gray and Cheriton), so that not every request pays a Redis round trip: a
 * process trusts a generation read for GENERATION_TRUST_MS from the moment it sent the read, and
 * `invalidate()` returns only INVALIDATION_SETTLE_MS (longer) after its write. A request that
 * arrives after a revocation was answered therefore uses a read sent after the write, which sees
 * the new generation; the revoked key's entry fails the check and Postgres refuses the key. The
 * revoker pays the wait (a fraction of a second, on a rare Console action); the hot path pays one
 * Redis read per process per GENERATION_TRUST_MS. Both are measured on each process's own
 * monotonic clock: no clock needs to agree with another machine's.
 *
 * A generation is a random UUID, never a counter: Redis may lose the key (restart without
 * persistence, eviction, flush), and a counter restarted from zero would hand out values already
 * stamped on cached entries, so a revoked key would pass again. A missing generation, or one Redis
 * cannot return, is unknown: nothing is served from memory or remembered, and the lookup goes to
 * Postgres as if there were no cache. The first reader that finds it missing writes a fresh one
 * (only if still missing), so the cache works again without waiting for a revocation.
 *
 * The generation is global rather than per workspace on purpose: a lookup must read it before
 * reading Postgres (so a revocation committed in between always replaces the stamp), and before
 * the lookup the workspace is not known yet. Revocations are rare, so the cost of invalidating
 * every entry at once is nothing.
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly generationKey: string;
  private lease: Lease | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    keys: RedisKeys,
  ) {
    this.generationKey = keys.key('api-keys', 'generation');
  }

  /**
   * The current generation, or null when it is unknown (then nothing may be cached or served):
   * the last read when it was sent less than GENERATION_TRUST_MS ago (answered or still on its
   * way), else a new read.
   */
  generation(): Promise<string | null> {
    return this.currentLease().generation;
  }

  /**
   * The cached key, decided without waiting: when the trusted generation is already known, this
   * is exactly `get(keyHash, await generation(), now)`; `undefined` when it is not known yet.
   * (The hot path: a request with a cached key then needs no promise at all.)
   */
  getNow(keyHash: string, now: Date): ActiveKey | undefined {
    const answer = this.currentLease().answer;
    return answer ? this.get(keyHash, answer.generation, now) : undefined;
  }

  private currentLease(): Lease {
    const now = performance.now();
    if (!this.lease || now - this.lease.sentAt >= GENERATION_TRUST_MS) {
      const lease: Lease = { sentAt: now, generation: this.read() };
      void lease.generation.then((generation) => (lease.answer = { generation }));
      this.lease = lease;
    }
    return this.lease;
  }

  private async read(): Promise<string | null> {
    try {
      const generation = await this.redis.get(this.generationKey);
      if (generation !== null) return generation;
      this.redis.set(this.generationKey, randomUUID(), 'NX').catch(() => undefined);
      return null;
    } catch {
      return null;
    }
  }

  /**
   * The cached key when it is still valid at `now` and its stamp is `generation`, read for this
   * request (never an earlier read): an entry from before the latest revocation fails the check.
   */
  get(keyHash: string, generation: string | null, now: Date): ActiveKey | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (generation === null) return undefined;
    if (entry.generation !== generation || now.getTime() - entry.cachedAt > ENTRY_TTL_MS || entry.key.expiresAt.getTime() <= now.getTime()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.key;
  }

  /** Stores a lookup made after reading `generation` (never one read before it). */
  remember(keyHash: string, key: ActiveKey, generation: string | null, now: Date): void {
    if (generation === null) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyHash, { key, generation, cachedAt: now.getTime() });
  }

  /**
   * Makes every cached key on every process invalid: once this resolves, no process serves an
   * entry from before it (see the lease above). Throws when Redis cannot be reached.
   */
  async invalidate(): Promise<void> {
    await this.redis.set(this.generationKey, randomUUID());
    this.lease = undefined;
    await new Promise((resolve) => setTimeout(resolve, INVALIDATION_SETTLE_MS));
  }
}
