import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { runCommand } from '../../src/cli/cli-commands.js';
import { OperatorModule } from '../../src/cli/operator.module.js';
import { OperatorService } from '../../src/cli/operator.service.js';
import { listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const PAYMENT_REQUIRED = { error: 'subscription required', code: 'payment_required' };

/**
 * A subscription the operator lets lapse (`npm run cli -- subscription <id> past_due`) ends the
 * workspace's open streams as a revoked key does: the Redis signal, on every replica. The
 * periodic recheck is 30 s here (the default), so these ends can only come from the signal. The
 * operator runs in a context of its own, as `npm run cli` does: its own database pool and Redis.
 */
describe('GET /api/events with subscriptions enforced: a lapsed subscription ends the streams at once', () => {
  let t: TestApp;
  let replica: TestApp;
  let cli: INestApplicationContext;
  let base: string;
  let replicaBase: string;
  const open: SseClient[] = [];

  const connect = async (url: string, headers: Record<string, string>): Promise<SseClient> => {
    const client = await openSse(`${url}/api/events`, headers);
    open.push(client);
    expect(client.status).toBe(200);
    return client;
  };
  const operator = (...argv: string[]): Promise<unknown> => runCommand(argv, cli.get(OperatorService));

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBSCRIPTIONS_ENFORCED: 'true' } });
    replica = await createTestApp({ replicaOf: t, env: { SUBSCRIPTIONS_ENFORCED: 'true' } });
    cli = await NestFactory.createApplicationContext(OperatorModule.forCli(t.config), { logger: false });
    base = await listenUrl(t.app);
    replicaBase = await listenUrl(replica.app);
  });
  afterEach(() => open.splice(0).forEach((client) => client.close()));
  afterAll(async () => {
    await cli?.close();
    await replica?.close();
    await t?.close();
  });

  it('the workspace’s key and session streams end on every replica; reconnecting is 402; another workspace streams on', async () => {
    const lapsing = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const paying = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const asKey = (key: string) => ({ Authorization: `Bearer ${key}` });
    const asOwner = (w: typeof lapsing) => ({ Cookie: w.owner.cookie, 'X-Tenant-ID': w.workspace.id });
    // Both key lookups cached as "active" (two calls: the first read of the cache generation may cache nothing).
    for (const pause of [150, 0]) {
      expect((await t.http().get('/api/conversations').set(asKey(lapsing.key))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
    const ended = [await connect(base, asKey(lapsing.key)), await connect(replicaBase, asKey(lapsing.key)), await connect(replicaBase, asOwner(lapsing))];
    const kept = [await connect(base, asKey(paying.key)), await connect(replicaBase, asOwner(paying))];

    expect(await operator('subscription', lapsing.workspace.id, 'past_due')).toMatchObject({ subscription_status: 'past_due' });

    for (const stream of ended) await stream.waitForEnd(5_000);
    // Both replicas handled the same signal when they ended the lapsed streams: the others are still open.
    expect(kept.map((s) => s.ended)).toEqual([false, false]);
    for (const headers of [asKey(lapsing.key), asOwner(lapsing)]) {
      const again = await openSse(`${base}/api/events`, headers);
      open.push(again);
      expect([again.status, JSON.parse(again.body)]).toEqual([402, PAYMENT_REQUIRED]);
    }
  });

  it('a change to another active status (active → trialing) leaves the streams open', async () => {
    const { workspace, owner, key } = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const other = await t.factories.apiKey(workspace.id);
    const streams = [
      await connect(base, { Authorization: `Bearer ${key}` }),
      await connect(replicaBase, { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id }),
    ];
    const revoked = await connect(replicaBase, { Authorization: `Bearer ${other.key}` });

    await operator('subscription', workspace.id, 'trialing');
    // A revocation published afterwards, on the same channel: once it has ended its stream, any
    // signal the change sent before it has been handled too.
    await t.http().delete(`/api/keys/${other.id}`).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).expect(200);
    await revoked.waitForEnd(5_000);
    expect(streams.map((s) => s.ended)).toEqual([false, false]);
  });
});

describe('GET /api/events with subscriptions not enforced: a lapse ends nothing', () => {
  let t: TestApp;
  let cli: INestApplicationContext;

  beforeAll(async () => {
    t = await createTestApp();
    cli = await NestFactory.createApplicationContext(OperatorModule.forCli(t.config), { logger: false });
  });
  afterAll(async () => {
    await cli?.close();
    await t?.close();
  });

  it('the workspace streams on after the operator cancels its subscription', async () => {
    const base = await listenUrl(t.app);
    const { workspace, owner, key } = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const other = await t.factories.apiKey(workspace.id);
    const stream = await openSse(`${base}/api/events`, { Authorization: `Bearer ${key}` });
    const revoked = await openSse(`${base}/api/events`, { Authorization: `Bearer ${other.key}` });
    try {
      expect([stream.status, revoked.status]).toEqual([200, 200]);
      await runCommand(['subscription', workspace.id, 'canceled'], cli.get(OperatorService));
      // A later signal on the same channel: once it has been handled, so has the lapse's.
      await t.http().delete(`/api/keys/${other.id}`).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).expect(200);
      await revoked.waitForEnd(5_000);
      expect(stream.ended).toBe(false);
    } finally {
      stream.close();
      revoked.close();
    }
  });
});
