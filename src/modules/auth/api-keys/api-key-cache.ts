import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Command, type Redis } from 'ioredis';
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
 * entry is stamped with a cluster-wide generation (one Redis key), each use re-reads it, and every
 * revocation or subscription change replaces it. A Redis GET is several times cheaper than the
 * Postgres lookup it replaces.
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
  private nextRead: Promise<string | null> | undefined;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    keys: RedisKeys,
  ) {
    this.generationKey = keys.key('api-keys', 'generation');
  }

  /**
   * The current generation, or null when it is unknown (then nothing may be cached or served).
   *
   * Requests asking at about the same time share one read, but only while it waits to be sent:
   * it is sent (at the next turn of the event loop) after every request sharing it arrived, so it
   * reflects every revocation acknowledged before any of them, exactly like a read of their own.
   * A read already sent is never shared. Under load this turns one Redis round trip per request
   * into one per batch of requests.
   */
  generation(): Promise<string | null> {
    this.nextRead ??= new Promise((resolve) => {
      setImmediate(() => {
        this.nextRead = undefined;
        resolve(this.read());
      });
    });
    return this.nextRead;
  }

  private async read(): Promise<string | null> {
    // Sent as it is rather than through auto-pipelining, which would hold it for one more turn of
    // the event loop: the batch above already gathers the requests of this turn.
    const command = new Command('get', [this.generationKey], { replyEncoding: 'utf8' });
    try {
      this.redis.sendCommand(command);
      const generation: unknown = await command.promise;
      if (typeof generation === 'string') return generation;
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

  /** Makes every cached key on every process invalid; throws when Redis cannot be reached. */
  async invalidate(): Promise<void> {
    await this.redis.set(this.generationKey, randomUUID());
  }
}
