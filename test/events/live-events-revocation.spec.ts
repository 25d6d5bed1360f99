import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_LIVE_EVENTS_OPTIONS, LIVE_EVENTS_OPTIONS } from '../../src/modules/events/live-events.options.js';
import { listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * A stream is a request that never ends: it must stop when its credential stops being valid,
 * as every later request would be refused (interface: "Revocation is immediate"). The periodic
 * recheck is 30 s here (the default), so these ends can only come from the revocation signal.
 */
describe('GET /api/events: the stream ends when its credential does', () => {
  let t: TestApp;
  let replica: TestApp;
  let base: string;
  let replicaBase: string;
  const open: SseClient[] = [];

  const connect = async (url: string, headers: Record<string, string>): Promise<SseClient> => {
    const client = await openSse(`${url}/api/events`, headers);
    expect(client.status).toBe(200);
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp();
    replica = await createTestApp({ replicaOf: t });
    base = await listenUrl(t.app);
    replicaBase = await listenUrl(replica.app);
  });
  afterEach(() => open.splice(0).forEach((client) => client.close()));
  afterAll(async () => {
    await replica?.close();
    await t?.close();
  });

  it('a revoked API key: its streams end on every replica, other keys stream on', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const revoked = await t.factories.apiKey(workspace.id);
    const other = await t.factories.apiKey(workspace.id);
    const here = await connect(base, { Authorization: `Bearer ${revoked.key}` });
    const there = await connect(replicaBase, { Authorization: `Bearer ${revoked.key}` });
    const kept = await connect(base, { Authorization: `Bearer ${other.key}` });

    await t.http().delete(`/api/keys/${revoked.id}`).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).expect(200);

    await here.waitForEnd(5_000);
    await there.waitForEnd(5_000);
    expect(kept.ended).toBe(false);
    const again = await openSse(`${base}/api/events`, { Authorization: `Bearer ${revoked.key}` });
    expect(again.status).toBe(401);
  });

  it('a session that logs out: its stream ends, the same user on another session streams on', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const second = await t.factories.sessionCookie(owner.id);
    const loggedOut = await connect(replicaBase, { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id });
    const kept = await connect(base, { Cookie: second, 'X-Tenant-ID': workspace.id });

    await t
      .http()
      .post('/api/auth/logout')
      .set('Cookie', owner.cookie)
      .set('Origin', t.config.publicUrl)
      .expect((res) => {
        expect(res.status).toBeLessThan(300);
      });

    await loggedOut.waitForEnd(5_000);
    expect(kept.ended).toBe(false);
  });

  it('a removed member: their stream ends; a member whose role changes reconnects with the new role', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const admin = await t.factories.signedInMember(workspace.id, 'admin');
    const asAgent = await connect(base, { Cookie: agent.cookie, 'X-Tenant-ID': workspace.id });
    const asAdmin = await connect(replicaBase, { Cookie: admin.cookie, 'X-Tenant-ID': workspace.id });
    const asOwner = await connect(base, { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id });
    const asOwnerElsewhere = await t.factories.workspaceWithOwner();
    const unrelated = await connect(base, { Cookie: asOwnerElsewhere.owner.cookie, 'X-Tenant-ID': asOwnerElsewhere.workspace.id });

    const manage = (method: 'delete' | 'patch', userId: string) =>
      t.http()[method](`/api/members/${userId}`).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).set('Origin', t.config.publicUrl);
    await manage('delete', agent.id).expect(200);
    await manage('patch', admin.id).send({ role: 'agent' }).expect(200);

    await asAgent.waitForEnd(5_000);
    await asAdmin.waitForEnd(5_000);
    expect(asOwner.ended).toBe(false);
    expect(unrelated.ended).toBe(false);
    expect((await openSse(`${base}/api/events`, { Cookie: agent.cookie, 'X-Tenant-ID': workspace.id })).status).toBe(403);
  });
});

/**
 * Calls the API with the key twice, 150 ms apart: the second call's lookup is cached (a process's
 * first read of the cache generation may find none yet, and then caches nothing).
 */
async function useTwice(t: TestApp, key: string): Promise<void> {
  for (const pause of [150, 0]) {
    expect((await t.http().get('/api/conversations').set('Authorization', `Bearer ${key}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

describe('GET /api/events: the periodic recheck ends streams whose signal was missed', () => {
  let t: TestApp;
  let base: string;
  const open: SseClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      customize: (builder) => builder.overrideProvider(LIVE_EVENTS_OPTIONS).useValue({ ...DEFAULT_LIVE_EVENTS_OPTIONS, recheckMs: 300 }),
    });
    base = await listenUrl(t.app);
  });
  afterEach(() => open.splice(0).forEach((client) => client.close()));
  afterAll(async () => {
    await t?.close();
  });

  it('credentials changed behind the service (no signal) end their streams at the next recheck', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const key = await t.factories.apiKey(workspace.id);
    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const demoted = await t.factories.signedInMember(workspace.id, 'admin');
    const expired = await t.factories.signedInMember(workspace.id, 'agent');
    const streams = await Promise.all(
      [{ Authorization: `Bearer ${key.key}` }, ...[agent, demoted, expired].map((m) => ({ Cookie: m.cookie, 'X-Tenant-ID': workspace.id }))].map((headers) =>
        openSse(`${base}/api/events`, headers),
      ),
    );
    open.push(...streams);
    const kept = await openSse(`${base}/api/events`, { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id });
    open.push(kept);
    expect([...streams, kept].map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);

    await useTwice(t, key.key); // its lookup cached
    await t.dataSource.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [key.id]);
    await t.dataSource.query(`DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [workspace.id, agent.id]);
    await t.dataSource.query(`UPDATE workspace_members SET role = 'agent' WHERE workspace_id = $1 AND user_id = $2`, [workspace.id, demoted.id]);
    await t.dataSource.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [expired.id]);

    for (const stream of streams) await stream.waitForEnd(5_000);
    // Two more rechecks: the owner's valid stream is left alone.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(kept.ended).toBe(false);
    // The key's cached lookup went with it: no reconnect, no API call (it was cached for minutes).
    const again = await openSse(`${base}/api/events`, { Authorization: `Bearer ${key.key}` });
    open.push(again);
    expect(again.status).toBe(401);
    const call = await t.http().get('/api/conversations').set('Authorization', `Bearer ${key.key}`);
    expect([call.status, call.body]).toEqual([401, { error: 'invalid or expired API key' }]);
  });

  it('a key expired by hand: its stream ends at the next recheck, and the key is refused from then on', async () => {
    const { workspace } = await t.factories.workspaceWithOwner();
    const key = await t.factories.apiKey(workspace.id);
    await useTwice(t, key.key); // its lookup cached
    const stream = await openSse(`${base}/api/events`, { Authorization: `Bearer ${key.key}` });
    open.push(stream);
    expect(stream.status).toBe(200);
    await t.dataSource.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [key.id]);
    await stream.waitForEnd(5_000);
    const call = await t.http().get('/api/conversations').set('Authorization', `Bearer ${key.key}`);
    expect([call.status, call.body]).toEqual([401, { error: 'invalid or expired API key' }]);
  });
});

describe('GET /api/events: with subscriptions enforced, a lapsed subscription ends the streams at the next recheck', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SUBSCRIPTIONS_ENFORCED: 'true' },
      customize: (builder) => builder.overrideProvider(LIVE_EVENTS_OPTIONS).useValue({ ...DEFAULT_LIVE_EVENTS_OPTIONS, recheckMs: 300 }),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('streams of a workspace whose subscription lapses end; another workspace streams on', async () => {
    const base = await listenUrl(t.app);
    const lapsing = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const paying = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const streams = await Promise.all(
      [lapsing, paying].flatMap(({ workspace, owner, key }) => [
        openSse(`${base}/api/events`, { Authorization: `Bearer ${key}` }),
        openSse(`${base}/api/events`, { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id }),
      ]),
    );
    try {
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
      await useTwice(t, lapsing.key); // its lookup cached
      await t.dataSource.query(`UPDATE workspaces SET subscription_status = 'canceled' WHERE id = $1`, [lapsing.workspace.id]);
      await Promise.all(streams.slice(0, 2).map((stream) => stream.waitForEnd(5_000)));
      // Reconnecting gets 402 at once, not the cached "active" for minutes.
      const again = await t.http().get('/api/conversations').set('Authorization', `Bearer ${lapsing.key}`);
      expect([again.status, again.body]).toEqual([402, { error: 'subscription required', code: 'payment_required' }]);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(streams.slice(2).map((s) => s.ended)).toEqual([false, false]);
    } finally {
      streams.forEach((s) => s.close());
    }
  });
});
