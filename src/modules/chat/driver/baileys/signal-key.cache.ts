import type { CacheStore } from '@whiskeysockets/baileys';

const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 20_000;

/**
 * The cache in front of the Postgres key store (Baileys' `makeCacheableSignalKeyStore`), one per
 * socket. Baileys' default (`@cacheable/node-cache`) runs an interval timer that keeps the cache,
 * key material included, reachable after its socket is gone; a reconnecting session would leave
 * one behind per socket. This one has no timer (entries expire when read), is bounded, and is
 * emptied when its socket closes.
 */
export class SignalKeyCache implements CacheStore {
  private readonly entries = new Map<string, { value: unknown; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set<T>(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + TTL_MS });
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  del(key: string): void {
    this.entries.delete(key);
  }

  flushAll(): void {
    this.entries.clear();
  }
}
