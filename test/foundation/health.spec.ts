import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { REDIS } from '../../src/infra/redis/redis.module.js';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { TEST_REDIS_URL, createTestDatabase, dropTestDatabase } from '../support/test-env.js';
import { TcpProxy } from '../support/tcp-proxy.js';

type Dependency = 'database' | 'redis';

/** A route that needs both dependencies, as most of the API does. */
@Public()
@Controller('api/test-dependencies')
class DependentController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get()
  async use(): Promise<{ ok: true }> {
    await this.dataSource.query('SELECT 1');
    await this.redis.get('test-dependency');
    return { ok: true };
  }
}

interface HealthAnswer {
  status: number;
  body: unknown;
}

/** Polls `/api/health` until `accept` holds (the app reconnects in the background). */
async function healthUntil(t: TestApp, accept: (answer: HealthAnswer) => boolean): Promise<HealthAnswer> {
  const deadline = Date.now() + 20_000;
  let last: HealthAnswer = { status: 0, body: undefined };
  while (Date.now() < deadline) {
    const res = await t.http().get('/api/health');
    last = { status: res.status, body: res.body };
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

const healthy = { status: 'ok', checks: { database: 'up', redis: 'up' } };

describe.each<Dependency>(['database', 'redis'])('GET /api/health while the %s goes away and comes back', (dependency) => {
  let t: TestApp;
  let proxy: TcpProxy;
  let ownDatabase: string | undefined;

  beforeAll(async () => {
    let env: Record<string, string>;
    if (dependency === 'database') {
      const database = await createTestDatabase();
      ownDatabase = database.name;
      proxy = await TcpProxy.start(database.url);
      env = { DATABASE_URL: proxy.rewrite(database.url) };
    } else {
      proxy = await TcpProxy.start(TEST_REDIS_URL);
      env = { REDIS_URL: proxy.rewrite(TEST_REDIS_URL) };
    }
    t = await createTestApp({ env, controllers: [DependentController] });
  });

  afterAll(async () => {
    await proxy?.open();
    await t?.close();
    await proxy?.close();
    if (ownDatabase) await dropTestDatabase(ownDatabase);
  });

  it('answers 200 with every check up while both dependencies are reachable', async () => {
    const res = await t.http().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(healthy);
  });

  it(`answers 503 "degraded" with ${dependency} down and the other check up when ${dependency} is unreachable`, async () => {
    await proxy.close();
    const other: Dependency = dependency === 'database' ? 'redis' : 'database';
    const answer = await healthUntil(t, (a) => a.status === 503);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: 'degraded', checks: { [dependency]: 'down', [other]: 'up' } });

    // The service keeps running: it still answers, with the same verdict, while the outage lasts.
    const again = await t.http().get('/api/health');
    expect(again.status).toBe(503);
    expect(again.body).toEqual(answer.body);
  });

  it(`answers a request that needs ${dependency} with 503 (retry later), not 500, while it is unreachable`, async () => {
    const res = await t.http().get('/api/test-dependencies');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'service temporarily unavailable, please retry' });
    if (dependency === 'database') {
      const login = await t.http().post('/api/auth/login').send({ email: 'someone@example.com', password: 'whatever-password' });
      expect(login.status).toBe(503);
    }
  });

  it(`recovers to 200 once ${dependency} is reachable again`, async () => {
    await proxy.open();
    const answer = await healthUntil(t, (a) => a.status === 200);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(healthy);
    expect((await t.http().get('/api/test-dependencies')).status).toBe(200);
  });
});
