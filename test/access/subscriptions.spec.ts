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
  // ...after every other check of api.md's order, and before input validation.
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

  it.each(ROWS)('%s %s as %s → %i', async (method, path, caller, status, body) => {
    const res = await send(t, method, path, as[caller]);
    const expected = status >= 400 ? body : Object.keys(body).length ? expect.objectContaining(body) : expect.anything();
    expect({ status: res.status, body: res.body }).toEqual({ status, body: expected });
  });

  it('an owner without a subscription can create, list and revoke keys', async () => {
    const created = await send(t, 'POST', '/api/keys', { ...as.owner, body: { name: 'rescue', scope: 'write' } });
    expect(created.status).toBe(201);
    const listed = await send(t, 'GET', '/api/keys', as.owner);
    expect(listed.status).toBe(200);
    const revoked = await send(t, 'DELETE', `/api/keys/${created.body.id}`, as.owner);
    expect({ status: revoked.status, body: revoked.body }).toEqual({ status: 200, body: { ok: true } });
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
