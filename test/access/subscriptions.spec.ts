import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OperatorModule } from '../../src/cli/operator.module.js';
import { OperatorService } from '../../src/cli/operator.service.js';
import type { SubscriptionStatus } from '../../src/modules/tenants/entities/workspace.entity.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type AccessFixtures, buildFixtures, type CallerName, callers, type Method, send } from './support/access-fixtures.js';
import { ASSIGN_TEXT, AccessProbeController } from './support/access-probe.controller.js';

const PAYMENT_REQUIRED = { error: 'subscription required', code: 'payment_required' };

/** [method, path, caller, status, body]: workspace A has no subscription. */
type Row = [Method, string, CallerName, number, Record<string, unknown>];

const ROWS: Row[] = [
  // Every workspace route answers 402, for keys and sessions alike...
  ['GET', '/test-access/member', 'writeKey', 402, PAYMENT_REQUIRED],
  ['GET', '/test-access/member', 'readKey', 402, PAYMENT_REQUIRED],
  ['GET', '/test-access/member', 'agent', 402, PAYMENT_REQUIRED],
  ['POST', '/test-access/member', 'owner', 402, PAYMENT_REQUIRED],
  ['GET', '/test-access/session', 'agent', 402, PAYMENT_REQUIRED],
  ['GET', '/test-access/console', 'owner', 402, PAYMENT_REQUIRED],
  ['POST', '/test-access/assign', 'admin', 402, PAYMENT_REQUIRED],
  // ...after every other check of docs/api.md's check order, and before input validation.
  ['GET', '/test-access/member', 'none', 401, { error: 'unauthorized' }],
  ['GET', '/test-access/member', 'expiredKey', 401, { error: 'invalid or expired API key' }],
  ['GET', '/test-access/member', 'writeKeyOtherTenant', 403, { error: 'API key belongs to a different workspace' }],
  ['GET', '/test-access/console', 'writeKey', 403, { error: 'API keys cannot administer workspaces' }],
  ['POST', '/test-access/member', 'readKey', 403, { error: 'API key is read-only' }],
  ['GET', '/test-access/member', 'ownerNoTenant', 400, { error: 'workspace required (X-Tenant-ID)' }],
  ['GET', '/test-access/member', 'outsider', 403, { error: 'forbidden' }],
  ['GET', '/test-access/console', 'agent', 403, { error: 'admin required' }],
  ['POST', '/test-access/assign', 'agent', 403, { error: ASSIGN_TEXT }],
  ['POST', '/test-access/validated', 'owner', 402, PAYMENT_REQUIRED],
  // Exempt routes stay usable, so an owner can still fix things; no-workspace routes are unaffected.
  ['GET', '/test-access/exempt', 'writeKey', 200, { role: 'agent' }],
  ['GET', '/test-access/exempt', 'owner', 200, { role: 'owner' }],
  ['GET', '/test-access/public', 'none', 200, { ok: true }],
  ['GET', '/test-access/user', 'ownerNoTenant', 200, {}],
  // Reading the workspace, its members, invites and keys is exempt (issue 4), and nothing else.
  ['GET', '/api/workspace', 'owner', 200, { subscription_status: 'none' }],
  ['GET', '/api/workspace', 'writeKey', 200, { subscription_status: 'none' }],
  ['GET', '/api/members', 'owner', 200, {}],
  ['GET', '/api/members', 'agent', 200, {}],
  ['GET', '/api/invites', 'admin', 200, {}],
  ['GET', '/api/keys', 'owner', 200, {}],
  ['GET', '/api/keys', 'writeKey', 403, { error: 'API keys cannot administer workspaces' }],
  ['GET', '/api/keys', 'agent', 403, { error: 'admin required' }],
];

describe('access with SUBSCRIPTIONS_ENFORCED=true', () => {
  let t: TestApp;
  let x: AccessFixtures;
  let as: ReturnType<typeof callers>;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBSCRIPTIONS_ENFORCED: 'true' }, controllers: [AccessProbeController], imports: [OperatorModule] });
    x = await buildFixtures(t, 'none');
    as = callers(x);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Everything the routes below could change in a workspace. */
  const workspaceState = async (workspaceId: string): Promise<unknown> => ({
    workspace: await t.dataSource.query(`SELECT name FROM workspaces WHERE id = $1`, [workspaceId]),
    members: await t.dataSource.query(`SELECT user_id, role FROM workspace_members WHERE workspace_id = $1 ORDER BY user_id`, [workspaceId]),
    invites: await t.dataSource.query(`SELECT id, email FROM invites WHERE workspace_id = $1 ORDER BY id`, [workspaceId]),
    keys: await t.dataSource.query(`SELECT id, revoked_at FROM api_keys WHERE workspace_id = $1 ORDER BY id`, [workspaceId]),
  });

  it.each(ROWS)('%s %s as %s → %i', async (method, path, caller, status, body) => {
    const res = await send(t, method, path, as[caller]);
    const expected = status >= 400 ? body : Object.keys(body).length ? expect.objectContaining(body) : expect.anything();
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expected });
  });

  it.each([
    ['malformed JSON', 'application/json', '{bad'],
    ['a body that is not JSON', 'text/plain', 'x'],
  ])('answers 402 before %s (input validation comes after the subscription)', async (_what, type, body) => {
    for (const caller of ['owner', 'writeKey'] as const) {
      let request = t.http().post('/test-access/validated');
      for (const [name, value] of Object.entries(as[caller].headers ?? {})) request = request.set(name, value);
      const res = await request.set('Content-Type', type).send(body);
      expect({ caller, status: res.status, body: res.body }).toEqual({ caller, status: 402, body: PAYMENT_REQUIRED });
    }
  });

  // Valid requests that a paying workspace's owner gets through (`:agent`, `:invite`, `:key` are
  // real ids): without a subscription each is 402 and changes nothing.
  it.each<[Method, string, Record<string, unknown>]>([
    ['PATCH', '/api/workspace', { name: 'Renamed while unpaid' }],
    ['PATCH', '/api/members/:agent', { role: 'admin' }],
    ['DELETE', '/api/members/:agent', {}],
    ['POST', '/api/invites', { email: 'newcomer@example.test', role: 'agent' }],
    ['DELETE', '/api/invites/:invite', {}],
    ['POST', '/api/keys', { name: 'rescue', scope: 'write' }],
    ['DELETE', '/api/keys/:key', {}],
  ])('%s %s as the owner → 402, nothing changes', async (method, pattern, body) => {
    const [invite] = await t.dataSource.query(
      `INSERT INTO invites (workspace_id, email, role, token_hash, expires_at) VALUES ($1, $2, 'agent', $3, now() + interval '7 days') RETURNING id`,
      [x.a.id, `pending-${randomUUID()}@example.test`, randomUUID()],
    );
    const key = await t.factories.apiKey(x.a.id, 'read');
    const path = pattern.replace(':agent', x.agent.id).replace(':invite', invite.id).replace(':key', key.id);
    const before = await workspaceState(x.a.id);

    const res = await send(t, method, path, { ...as.owner, body });
    expect({ status: res.status, body: res.body }).toEqual({ status: 402, body: PAYMENT_REQUIRED });
    expect(await workspaceState(x.a.id)).toEqual(before);
  });

  it.each<[SubscriptionStatus, number]>([
    ['active', 200],
    ['trialing', 200],
    ['none', 402],
    ['past_due', 402],
    ['canceled', 402],
  ])('a key of a workspace whose subscription is %s gets %i', async (subscriptionStatus, status) => {
    const workspace = await t.factories.workspace({ subscriptionStatus });
    const { key } = await t.factories.apiKey(workspace.id, 'read');
    const res = await send(t, 'GET', '/test-access/member', { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(status);
    if (status === 402) expect(res.body).toEqual(PAYMENT_REQUIRED);
  });

  it('a status change by the operator applies on the next request, for keys and sessions', async () => {
    const workspace = await t.factories.workspace({ subscriptionStatus: 'active' });
    const owner = await t.factories.signedInMember(workspace.id, 'owner');
    const { key } = await t.factories.apiKey(workspace.id, 'write');
    const asKey = { headers: { Authorization: `Bearer ${key}` } };
    const asOwner = { headers: { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id } };
    expect((await send(t, 'GET', '/test-access/member', asKey)).status).toBe(200);
    await t.app.get(OperatorService).setSubscription(workspace.id, 'canceled');
    expect((await send(t, 'GET', '/test-access/member', asKey)).status).toBe(402);
    expect((await send(t, 'GET', '/test-access/member', asOwner)).status).toBe(402);
  });
});
