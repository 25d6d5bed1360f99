import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestingModuleBuilder } from '@nestjs/testing';
import { OperatorService } from '../../src/cli/operator.service.js';
import { OperatorModule } from '../../src/cli/operator.module.js';
import { RedisKeys } from '../../src/infra/redis/redis.module.js';
import { Clock } from '../../src/modules/auth/clock/clock.js';
import { ManualClock } from '../support/manual-clock.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { TEST_REDIS_URL } from '../support/test-env.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { DAY_MS } from './support/access-fixtures.js';

/**
 * Key lookups are cached per process, yet a revoked key must fail on its very next request on
 * every replica. Two replicas share one database and Redis prefix, as behind a load balancer.
 */
describe('API key cache across replicas', () => {
  let a: TestApp;
  let b: TestApp;
  let redisProxy: TcpProxy;
  // One clock for both replicas: two processes on one machine see the same time.
  const clock = new ManualClock();
  const withClock = { customize: (builder: TestingModuleBuilder) => builder.overrideProvider(Clock).useValue(clock) };

  beforeAll(async () => {
    const env = { SUBSCRIPTIONS_ENFORCED: 'true' };
    a = await createTestApp({ env, imports: [OperatorModule], ...withClock });
    // Replica B reaches Redis through a proxy the test can cut.
    redisProxy = await TcpProxy.start(TEST_REDIS_URL);
    b = await createTestApp({ replicaOf: a, env: { ...env, REDIS_URL: redisProxy.rewrite(TEST_REDIS_URL) }, ...withClock });
  });
  afterAll(async () => {
    await b?.close();
    await redisProxy?.close();
    await a?.close();
  });

  const workspaceOn = (app: TestApp, key: string) => app.http().get('/api/workspace').set('Authorization', `Bearer ${key}`).timeout(5000);
  const revokeOnA = (workspaceId: string, cookie: string, id: string) =>
    a.http().delete(`/api/keys/${id}`).set('Cookie', cookie).set('X-Tenant-ID', workspaceId).set('Content-Type', 'application/json');

  it('refuses a key on replica B right after replica A revoked it, though B had it cached', async () => {
    const { workspace, owner } = await a.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const { id, key } = await a.factories.apiKey(workspace.id, 'read');
    expect((await workspaceOn(b, key)).status).toBe(200);
    expect((await workspaceOn(b, key)).status).toBe(200);

    const revoked = await revokeOnA(workspace.id, owner.cookie, id);
    expect(revoked.status).toBe(200);

    const after = await workspaceOn(b, key);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'invalid or expired API key' });
  });

  it('applies a subscription change made by the operator CLI at once on every replica', async () => {
    const { workspace } = await a.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const { key } = await a.factories.apiKey(workspace.id, 'read');
    expect((await workspaceOn(b, key)).status).toBe(200);
    expect((await b.http().get('/api/conversations').set('Authorization', `Bearer ${key}`)).status).toBe(200);

    await a.app.get(OperatorService).setSubscription(workspace.id, 'canceled');

    const after = await b.http().get('/api/conversations').set('Authorization', `Bearer ${key}`).timeout(5000);
    expect(after.status).toBe(402);
    expect(after.body).toEqual({ error: 'subscription required', code: 'payment_required' });
  });

  it('refuses a key once the clock has moved 366 days, on every replica, even one B had cached', async () => {
    const { workspace } = await a.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const cached = await a.factories.apiKey(workspace.id, 'read');
    const unused = await a.factories.apiKey(workspace.id, 'read');
    expect((await workspaceOn(b, cached.key)).status).toBe(200);
    expect((await workspaceOn(b, cached.key)).status).toBe(200);

    clock.advance(366 * DAY_MS);
    try {
      for (const [app, key] of [
        [b, cached.key],
        [a, cached.key],
        [b, unused.key],
      ] as const) {
        const res = await workspaceOn(app, key);
        expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { error: 'invalid or expired API key' } });
      }
    } finally {
      clock.advance(-366 * DAY_MS);
    }
  });

  it('checks Postgres, not its memory, while Redis is unreachable: a revoked key still fails', async () => {
    const { workspace, owner } = await a.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const { id, key } = await a.factories.apiKey(workspace.id, 'read');
    expect((await workspaceOn(b, key)).status).toBe(200);

    await redisProxy.close();
    try {
      // Revoked through A, whose Redis works; B cannot read the generation and must not trust its cache.
      const revoked = await revokeOnA(workspace.id, owner.cookie, id);
      expect(revoked.status).toBe(200);
      expect((await workspaceOn(b, key)).status).toBe(401);
    } finally {
      await redisProxy.open();
    }
  });

  describe('when Redis loses the generation (restart without persistence, eviction, flush)', () => {
    const loseGeneration = () => a.redis.del(a.app.get(RedisKeys).key('api-keys', 'generation'));

    it('a revocation after the loss still invalidates what B cached before it', async () => {
      const { workspace, owner } = await a.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
      const earlier = await a.factories.apiKey(workspace.id, 'read');
      const { id, key } = await a.factories.apiKey(workspace.id, 'read');
      await loseGeneration();
      expect((await revokeOnA(workspace.id, owner.cookie, earlier.id)).status).toBe(200);
      expect((await workspaceOn(b, key)).status).toBe(200);
      expect((await workspaceOn(b, key)).status).toBe(200);

      await loseGeneration();
      expect((await revokeOnA(workspace.id, owner.cookie, id)).status).toBe(200);

      const after = await workspaceOn(b, key);
      expect({ status: after.status, body: after.body }).toEqual({ status: 401, body: { error: 'invalid or expired API key' } });
    });

    it('a replica neither trusts nor remembers a lookup while the generation is missing', async () => {
      const { workspace, owner } = await a.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
      const { id, key } = await a.factories.apiKey(workspace.id, 'read');
      await loseGeneration();
      expect((await workspaceOn(b, key)).status).toBe(200);
      expect((await revokeOnA(workspace.id, owner.cookie, id)).status).toBe(200);
      await loseGeneration();

      const after = await workspaceOn(b, key);
      expect({ status: after.status, body: after.body }).toEqual({ status: 401, body: { error: 'invalid or expired API key' } });
    });
  });
});
