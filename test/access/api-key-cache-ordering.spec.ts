import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Test, type TestingModule } from '@nestjs/testing';
import type { Command, Redis } from 'ioredis';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { ConfigModule } from '../../src/infra/config/config.module.js';
import { REDIS, RedisKeys, RedisModule } from '../../src/infra/redis/redis.module.js';
import { ApiKeyCache } from '../../src/modules/auth/api-keys/api-key-cache.js';
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
      providers: [ApiKeyCache, ApiKeyService, Clock, { provide: ApiKeyRepository, useValue: repository }],
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
  readonly sent: { command: Command; value: string | null }[] = [];
  readonly sets: unknown[][] = [];

  sendCommand(command: Command): void {
    this.sent.push({ command, value: this.value });
  }

  async set(...args: unknown[]): Promise<'OK'> {
    this.sets.push(args);
    return 'OK';
  }

  answerAll(): void {
    for (const { command, value } of this.sent.splice(0)) command.resolve(value);
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('API key cache generation reads (unit: stub Redis)', () => {
  let redis: HeldRedis;
  let cache: ApiKeyCache;
  beforeEach(() => {
    redis = new HeldRedis();
    cache = new ApiKeyCache(redis as unknown as Redis, new RedisKeys(config));
  });

  it('shares one read among requests of one turn, never a read sent before a request arrived', async () => {
    const sameTurn = [cache.generation(), cache.generation(), cache.generation()];
    await nextTurn();
    expect(redis.sent).toHaveLength(1);

    redis.value = 'g2'; // a revocation answered after that read was sent, before the next request
    const later = cache.generation();
    await nextTurn();
    expect(redis.sent).toHaveLength(2);

    redis.answerAll();
    expect(await Promise.all(sameTurn)).toEqual(['g1', 'g1', 'g1']);
    expect(await later).toBe('g2');
  });

  it('treats a missing generation as unknown and writes a fresh one only if still missing', async () => {
    redis.value = null;
    const read = cache.generation();
    await nextTurn();
    redis.answerAll();
    expect(await read).toBeNull();
    expect(redis.sets).toEqual([[config.redisPrefix + ':api-keys:generation', expect.stringMatching(/^[0-9a-f-]{36}$/), 'NX']]);
  });
});
