import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AccessRule } from '../../src/modules/auth/decorators/access.decorators.js';
import { isWorkspaceRoute } from '../../src/modules/auth/guards/access-rule.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type AccessFixtures, buildFixtures, type Caller, type CallerName, callers, type Method, send } from './support/access-fixtures.js';
import { concretePath, listRoutes, type RouteInfo } from './support/routes.js';

/**
 * Every route of the app (the other modules' included, as they land), swept with every refusal
 * its access rule implies. Only refusals are sent: the guards answer before any handler runs, so
 * the sweep has no side effects and needs no request bodies. Workspace A has an active
 * subscription; workspace U has none (SUBSCRIPTIONS_ENFORCED is on).
 */
interface Sweep {
  name: string;
  applies: (rule: AccessRule, method: string) => boolean;
  caller: CallerName | ((u: UnpaidFixtures) => Caller);
  expected: (rule: AccessRule) => { status: number; body: Record<string, string> };
}

interface UnpaidFixtures {
  owner: Caller;
  key: Caller;
}

const error = (status: number, text: string) => () => ({ status, body: { error: text } });
const authenticated = (rule: AccessRule): boolean => rule.kind !== 'public';
const workspace = (rule: AccessRule): boolean => isWorkspaceRoute(rule.kind);
const sessionOnly = (rule: AccessRule): boolean => rule.kind === 'user' || rule.kind === 'session' || rule.kind === 'console';
const writes = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

const SWEEPS: Sweep[] = [
  { name: 'no credentials → 401 unauthorized', applies: authenticated, caller: 'none', expected: error(401, 'unauthorized') },
  { name: '`bearer` in lower case → 401 unauthorized', applies: authenticated, caller: 'lowercaseBearer', expected: error(401, 'unauthorized') },
  { name: 'X-API-Key → 401 unauthorized', applies: authenticated, caller: 'xApiKey', expected: error(401, 'unauthorized') },
  { name: 'key in the query string → 401 unauthorized', applies: authenticated, caller: 'queryAccessToken', expected: error(401, 'unauthorized') },
  { name: 'expired key → 401', applies: authenticated, caller: 'expiredKey', expected: error(401, 'invalid or expired API key') },
  { name: 'revoked key → 401', applies: authenticated, caller: 'revokedKey', expected: error(401, 'invalid or expired API key') },
  {
    name: 'key of another workspace → 403',
    applies: workspace,
    caller: 'otherKey',
    expected: error(403, 'API key belongs to a different workspace'),
  },
  { name: 'key with a malformed X-Tenant-ID → 400', applies: workspace, caller: 'writeKeyBadTenant', expected: error(400, 'invalid workspace id') },
  {
    name: 'session without a workspace → 400',
    applies: workspace,
    caller: 'ownerNoTenant',
    expected: error(400, 'workspace required (X-Tenant-ID)'),
  },
  { name: 'session with a malformed X-Tenant-ID → 400', applies: workspace, caller: 'ownerBadTenant', expected: error(400, 'invalid workspace id') },
  { name: 'non-member → 403 forbidden', applies: workspace, caller: 'outsider', expected: error(403, 'forbidden') },
  { name: 'write key on a session route → 403', applies: sessionOnly, caller: 'writeKey', expected: error(403, 'API keys cannot administer workspaces') },
  { name: 'read key on a session route → 403', applies: sessionOnly, caller: 'readKey', expected: error(403, 'API keys cannot administer workspaces') },
  {
    name: 'read key writing on a member route → 403 read-only',
    applies: (rule, method) => rule.kind === 'member' && writes(method),
    caller: 'readKey',
    expected: error(403, 'API key is read-only'),
  },
  {
    name: 'agent on an owner/admin route → 403 with the route text',
    applies: (rule) => workspace(rule) && rule.admin !== undefined,
    caller: 'agent',
    expected: (rule) => ({ status: 403, body: { error: rule.admin!.message } }),
  },
  {
    name: 'write key on an admin member route → 403 with the route text',
    applies: (rule) => rule.kind === 'member' && rule.admin !== undefined,
    caller: 'writeKey',
    expected: (rule) => ({ status: 403, body: { error: rule.admin!.message } }),
  },
  {
    name: 'owner of a workspace without subscription → 402',
    applies: (rule) => workspace(rule) && !rule.subscriptionExempt,
    caller: (u) => u.owner,
    expected: () => ({ status: 402, body: { error: 'subscription required', code: 'payment_required' } }),
  },
  {
    name: 'key of a workspace without subscription → 402',
    applies: (rule) => rule.kind === 'member' && !rule.subscriptionExempt && rule.admin === undefined,
    caller: (u) => u.key,
    expected: () => ({ status: 402, body: { error: 'subscription required', code: 'payment_required' } }),
  },
];

describe('every route refuses what its access rule refuses', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  let as: ReturnType<typeof callers>;
  let unpaid: UnpaidFixtures;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBSCRIPTIONS_ENFORCED: 'true' } });
    routes = listRoutes(t.app).filter((route) => route.method !== 'ALL' && route.method !== 'OPTIONS');
    const x: AccessFixtures = await buildFixtures(t, 'active');
    as = callers(x);
    const u = await t.factories.workspace({ subscriptionStatus: 'none' });
    const owner = await t.factories.signedInMember(u.id, 'owner');
    const { key } = await t.factories.apiKey(u.id, 'write');
    unpaid = { owner: { headers: { Cookie: owner.cookie, 'X-Tenant-ID': u.id } }, key: { headers: { Authorization: `Bearer ${key}` } } };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds the routes to sweep', () => {
    expect(routes.filter((route) => route.rule.kind !== 'public').length).toBeGreaterThan(0);
  });

  it.each(SWEEPS.map((sweep) => [sweep.name, sweep] as const))('%s', async (_name, sweep) => {
    const mismatches: string[] = [];
    for (const route of routes.filter((r) => sweep.applies(r.rule, r.method))) {
      const caller = typeof sweep.caller === 'function' ? sweep.caller(unpaid) : as[sweep.caller];
      const res = await send(t, route.method as Method, concretePath(route.path), caller);
      const expected = sweep.expected(route.rule);
      if (res.status !== expected.status || JSON.stringify(res.body) !== JSON.stringify(expected.body)) {
        mismatches.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
