import { Injectable, Logger } from '@nestjs/common';
import { sha256Hex } from '../../../infra/crypto/hashing.js';
import { ApiError } from '../../../infra/http/api-error.js';
import type { ApiKeyPrincipal } from '../auth.types.js';
import { Clock } from '../clock/clock.js';
import type { ApiKeyEntity, ApiKeyScope } from '../entities/api-key.entity.js';
import { AccessRevocations } from '../../events/access-revocations.js';
import { ApiKeyCache } from './api-key-cache.js';
import { API_KEY_LIFETIME_MS, API_KEY_PATTERN, DISPLAY_PREFIX_LENGTH, generateApiKey } from './api-key-format.js';
import { type ActiveKey, ApiKeyRepository } from './api-key.repository.js';

// last_used_at is kept to the minute: one write per key per minute per process at most.
const LAST_USED_WRITE_INTERVAL_MS = 60 * 1000;
export const API_KEY_NOT_FOUND = 'API key not found';

export interface CreatedApiKey {
  entity: ApiKeyEntity;
  /** The full key: returned once at creation and never stored. */
  key: string;
}

@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly cache: ApiKeyCache,
    private readonly clock: Clock,
    private readonly revocations: AccessRevocations,
  ) {}

  /**
   * A valid key's principal, or null for unknown, malformed, revoked or expired keys. A revoked
   * key fails on its very next request: the cache is checked against the revocation generation
   * on every use (see ApiKeyCache). Expiry is judged by the injected clock, cached or not.
   */
  async authenticate(key: string): Promise<ApiKeyPrincipal | null> {
    if (!API_KEY_PATTERN.test(key)) return null;
    const now = this.clock.date();
    const found = await this.lookup(sha256Hex(key), now);
    return found && this.principalOf(found, now);
  }

  /**
   * `authenticate` for a key this process has cached under the generation it currently trusts,
   * answered without waiting; `undefined` means "not decidable now": call `authenticate`.
   */
  authenticateFromCache(key: string): ApiKeyPrincipal | undefined {
    if (!API_KEY_PATTERN.test(key)) return undefined;
    const now = this.clock.date();
    const found = this.cache.getNow(sha256Hex(key), now);
    return found && this.principalOf(found, now);
  }

  /** `now` defaults to the clock; tests pass an earlier time to get an old key. */
  async create(workspaceId: string, name: string, scope: ApiKeyScope, createdBy: string | null, now = this.clock.date()): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const entity = await this.keys.insert(workspaceId, {
      name,
      scope,
      keyHash: sha256Hex(key),
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      createdBy,
      // Stored with the same clock as expires_at, so the two always differ by exactly 365 days.
      createdAt: now,
      expiresAt: new Date(now.getTime() + API_KEY_LIFETIME_MS),
    });
    return { entity, key };
  }

  list(workspaceId: string): Promise<ApiKeyEntity[]> {
    return this.keys.list(workspaceId);
  }

  /**
   * Immediate: once this returns, every process refuses the key and has been told to end its
   * open event streams. If the cache generation cannot
   * be replaced the caller gets a 503 and should retry; until then cached entries would expire
   * within minutes at the latest. A key revoked before is 404, like every repeated delete
   * (docs/api.md, "Conventions"), but only after the generation is replaced again: the retry
   * after a 503 finds the key revoked and must still finish telling every server.
   */
  async revoke(workspaceId: string, id: string): Promise<void> {
    const outcome = await this.keys.revoke(workspaceId, id);
    if (outcome === 'missing') throw ApiError.notFound(API_KEY_NOT_FOUND);
    const told = await this.cache.invalidate().then(
      () => true,
      () => false,
    );
    // Open event streams of the key end too (on every replica), not only its next request. Sent
    // after the cache is invalidated, so a stream that reconnects at once is refused.
    await this.revocations.publish({ kind: 'api_key', keyId: id });
    if (!told) throw new ApiError(503, 'the key is revoked but not every server could be told yet; retry the request');
    if (outcome === 'already') throw ApiError.notFound(API_KEY_NOT_FOUND);
  }

  private async lookup(keyHash: string, now: Date): Promise<ActiveKey | null> {
    // One read of the generation serves both the cache check and, on a miss, the stamp. It is
    // read before Postgres: a revocation committed after this read replaces it, so an entry
    // stored from a pre-revocation lookup can never pass a later check. (Pinned by
    // test/access/api-key-cache-ordering.spec.ts.)
    const generation = await this.cache.generation();
    const cached = this.cache.get(keyHash, generation, now);
    if (cached) return cached;
    const found = await this.keys.findActiveByHash(keyHash, now);
    if (found) this.cache.remember(keyHash, found, generation, now);
    return found;
  }

  private principalOf(found: ActiveKey, now: Date): ApiKeyPrincipal {
    this.recordUse(found.workspaceId, found.id, now);
    return { type: 'api_key', keyId: found.id, workspaceId: found.workspaceId, scope: found.scope, subscriptionStatus: found.subscriptionStatus };
  }

  /**
   * Sent while the guard chain accepts the key, without the request waiting for it: the write
   * runs alongside the handler, and a failure is only logged (the key stays usable).
   */
  private recordUse(workspaceId: string, id: string, now: Date): void {
    const last = this.lastUsedWrites.get(id) ?? 0;
    if (now.getTime() - last < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWrites.set(id, now.getTime());
    if (this.lastUsedWrites.size > 10_000) this.lastUsedWrites.clear();
    this.keys.markUsed(workspaceId, id, now).catch((error: unknown) => this.logger.warn({ err: error }, 'could not record key use'));
  }
}
