import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Redis } from 'ioredis';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { ConfigModule } from '../../src/infra/config/config.module.js';
import { REDIS, RedisKeys, RedisModule } from '../../src/infra/redis/redis.module.js';
import { AccessRevocations } from '../../src/modules/events/access-revocations.js';
import { ApiKeyCache, GENERATION_TRUST_MS } from '../../src/modules/auth/api-keys/api-key-cache.js';
import { type ActiveKey, ApiKeyRepository } from '../../src/modules/auth/api-keys/api-key.repository.js';
import { ApiKeyService } from '../../src/modules/auth/api-keys/api-key.service.js';
import { Clock } from '../../src/modules/auth/clock/clock.js';
import { testEnv } from '../support/test-app.js';
import { DAY_MS } from './support/access-fixtures.js';

const KEY = `pk_live_${'ab'.repeat(24)}`;
const config = loadConfig(testEnv('postgres://unused@127.0.0.1:1/unused'));

/**
 * Stands in for Postgres to pin an ordering no integration test can reach reliably: the key is
 * revoked, and the revocation replaces the cache generation, while the lookup that read the key
 * as valid is still on its way back.
 */
class RevokedDuringLookup implements Pick<ApiKeyRepository, 'findActiveByHash' | 'markUsed'> {
  lookups = 0;
  revokeDuringNextLookup = false;
  private revoked = false;
  onRevoke: () => Promise<void> = async () => undefined;

  async findActiveByHash(): Promise<ActiveKey | null> {
    this.lookups++;
    if (this.revoked) return null;
    const row: ActiveKey = {
      id: '6f1c1c1e-1111-4111-8111-111111111111',
      workspaceId: '6f1c1c1e-2222-4222-8222-222222222222',
      scope: 'read',
      subscriptionStatus: 'active',
      expiresAt: new Date(Date.now() + 300 * DAY_MS),
    };
    if (this.revokeDuringNextLookup) {
      this.revoked = true;
      await this.onRevoke(); // what ApiKeyService.revoke does after its UPDATE commits
    }
    return row;
  }

  async markUsed(): Promise<void> {}
}

describe('API key lookup order (unit: real Redis, stub repository)', () => {
  let moduleRef: TestingModule;
  let repository: RevokedDuringLookup;
  let service: ApiKeyService;

  beforeAll(async () => {
    repository = new RevokedDuringLookup();
    moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), RedisModule],
      providers: [ApiKeyCache, ApiKeyService, AccessRevocations, Clock, { provide: ApiKeyRepository, useValue: repository }],
    }).compile();
    service = moduleRef.get(ApiKeyService);
    const cache = moduleRef.get(ApiKeyCache);
    repository.onRevoke = () => cache.invalidate();
  });
  afterAll(async () => {
    await moduleRef.get<Redis>(REDIS).del(moduleRef.get(RedisKeys).key('api-keys', 'generation'));
    await moduleRef.close();
  });
  beforeEach(async () => {
    // A known generation, so the first lookup below is cached.
    await moduleRef.get(ApiKeyCache).invalidate();
  });

  it('serves a second request from memory when nothing changed (the cache is on)', async () => {
    expect(await service.authenticate(KEY)).toMatchObject({ type: 'api_key', scope: 'read' });
    expect(await service.authenticate(KEY)).toMatchObject({ type: 'api_key', scope: 'read' });
    expect(repository.lookups).toBe(1);
  });

  it('refuses the key on the next request when it was revoked during the lookup that cached it', async () => {
    repository.lookups = 0;
    // Another key's hash: the first test cached KEY.
    const key = `pk_live_${'cd'.repeat(24)}`;
    repository.revokeDuringNextLookup = true;
    // Read before the revocation committed: this request may still pass.
    expect(await service.authenticate(key)).not.toBeNull();
    // The generation was read before the lookup, so the entry carries the old one and fails the check.
    expect(await service.authenticate(key)).toBeNull();
    expect(repository.lookups).toBe(2);
  });
});

/**
 * Stands in for Redis to hold replies: each GET is answered only when the test says so, with the
 * value the key had when the GET was sent (which is when Redis would have read it).
 */
class HeldRedis {
  value: string | null = 'g1';
  readonly gets: { resolve: (value: string | null) => void; value: string | null }[] = [];
  readonly sets: unknown[][] = [];

  get(): Promise<string | null> {
    return new Promise((resolve) => this.gets.push({ resolve, value: this.value }));
  }

  async set(key: string, value: string, mode?: 'NX'): Promise<'OK' | null> {
    this.sets.push(mode ? [key, value, mode] : [key, value]);
    if (mode === 'NX' && this.value !== null) return null;
    this.value = value;
    return 'OK';
  }

  answerAll(): void {
    for (const { resolve, value } of this.gets.splice(0)) resolve(value);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('API key cache generation reads (unit: stub Redis)', () => {
  let redis: HeldRedis;
  let cache: ApiKeyCache;
  beforeEach(() => {
    redis = new HeldRedis();
    cache = new ApiKeyCache(redis as unknown as Redis, new RedisKeys(config));
  });

  it('shares one read among the requests of its trust window, answered or still on its way', async () => {
    const waiting = [cache.generation(), cache.generation()];
    expect(redis.gets).toHaveLength(1);
    redis.answerAll();
    expect(await Promise.all([...waiting, cache.generation()])).toEqual(['g1', 'g1', 'g1']);
    expect(redis.gets).toHaveLength(0);
  });

  it('reads again once the last read was sent GENERATION_TRUST_MS ago', async () => {
    const first = cache.generation();
    redis.answerAll();
    await first;
    await sleep(GENERATION_TRUST_MS + 5);
    const second = cache.generation();
    expect(redis.gets).toHaveLength(1);
    redis.answerAll();
    expect(await second).toBe('g1');
  });

  it('answers a revocation only once no process can still trust a generation read before it', async () => {
    const replica = cache; // holds a fresh lease on g1
    const held = replica.generation();
    redis.answerAll();
    expect(await held).toBe('g1');

    const revoker = new ApiKeyCache(redis as unknown as Redis, new RedisKeys(config));
    await revoker.invalidate();

    const next = replica.generation();
    expect(redis.gets).toHaveLength(1); // the old lease ran out while the revocation waited
    redis.answerAll();
    const generation = await next;
    expect(generation).not.toBe('g1');
    expect(generation).toBe(redis.value);
  });

  it('treats a missing generation as unknown and writes a fresh one only if still missing', async () => {
    redis.value = null;
    const read = cache.generation();
    redis.answerAll();
    expect(await read).toBeNull();
    expect(redis.sets).toEqual([[config.redisPrefix + ':api-keys:generation', expect.stringMatching(/^[0-9a-f-]{36}$/), 'NX']]);
  });
});
