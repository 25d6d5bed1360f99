import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type AccessFixtures, buildFixtures, type CallerName, callers, type Method, send } from './support/access-fixtures.js';
import { ASSIGN_TEXT, AccessProbeController, ConsoleClassProbeController } from './support/access-probe.controller.js';

// The contract's authentication table (docs/contract.md#authentication) and docs/api.md's texts, verbatim.
const UNAUTHORIZED = 'unauthorized';
const INVALID_KEY = 'invalid or expired API key';
const READ_ONLY = 'API key is read-only';
const NO_ADMIN_KEYS = 'API keys cannot administer workspaces';
const OTHER_WORKSPACE = 'API key belongs to a different workspace';
const ADMIN_REQUIRED = 'admin required';
const FORBIDDEN = 'forbidden';
const WORKSPACE_REQUIRED = 'workspace required (X-Tenant-ID)';
const BAD_WORKSPACE = 'invalid workspace id';

/** [method, path, caller, status, error text (for errors) or the role the route saw (for 2xx)]. */
type Row = [Method, string, CallerName, number, string?];

// The same denials for every workspace route, whatever its label.
const workspaceDenials = (method: Method, path: string): Row[] => [
  [method, path, 'none', 401, UNAUTHORIZED],
  [method, path, 'lowercaseBearer', 401, UNAUTHORIZED],
  [method, path, 'uppercaseBearer', 401, UNAUTHORIZED],
  [method, path, 'doubleSpaceBearer', 401, UNAUTHORIZED],
  [method, path, 'xApiKey', 401, UNAUTHORIZED],
  [method, path, 'queryAccessToken', 401, UNAUTHORIZED],
  [method, path, 'queryApiKey', 401, UNAUTHORIZED],
  [method, path, 'expiredKey', 401, INVALID_KEY],
  [method, path, 'expiredKeyOtherTenant', 401, INVALID_KEY],
  [method, path, 'revokedKey', 401, INVALID_KEY],
  [method, path, 'unknownKey', 401, INVALID_KEY],
  [method, path, 'garbageBearer', 401, INVALID_KEY],
  [method, path, 'otherKey', 403, OTHER_WORKSPACE],
  [method, path, 'writeKeyOtherTenant', 403, OTHER_WORKSPACE],
  [method, path, 'writeKeyOtherTenantQuery', 403, OTHER_WORKSPACE],
  [method, path, 'writeKeyOwnHeaderOtherQuery', 403, OTHER_WORKSPACE],
  [method, path, 'writeKeyBadTenant', 400, BAD_WORKSPACE],
  [method, path, 'outsider', 403, FORBIDDEN],
  [method, path, 'ownerNoTenant', 400, WORKSPACE_REQUIRED],
  [method, path, 'ownerBadTenant', 400, BAD_WORKSPACE],
  [method, path, 'ownerTwoTenants', 400, BAD_WORKSPACE],
];

const ROWS: Row[] = [
  // public: anyone; credentials, even broken ones, are not looked at.
  ['GET', '/test-access/public', 'none', 200],
  ['GET', '/test-access/public', 'revokedKey', 200],
  ['GET', '/test-access/public', 'lowercaseBearer', 200],

  // user: a signed-in session, no workspace.
  ['GET', '/test-access/user', 'none', 401, UNAUTHORIZED],
  ['GET', '/test-access/user', 'ownerNoTenant', 200],
  ['GET', '/test-access/user', 'outsider', 200],
  ['GET', '/test-access/user', 'writeKey', 403, NO_ADMIN_KEYS],
  ['GET', '/test-access/user', 'readKey', 403, NO_ADMIN_KEYS],
  ['GET', '/test-access/user', 'expiredKey', 401, INVALID_KEY],
  ['GET', '/test-access/user', 'revokedKey', 401, INVALID_KEY],
  ['GET', '/test-access/user', 'lowercaseBearer', 401, UNAUTHORIZED],
  ['GET', '/test-access/user', 'xApiKey', 401, UNAUTHORIZED],

  // member: a key of either scope (read: GET/HEAD only) or a session member.
  ...workspaceDenials('GET', '/test-access/member'),
  ['GET', '/test-access/member', 'owner', 200, 'owner'],
  ['GET', '/test-access/member', 'admin', 200, 'admin'],
  ['GET', '/test-access/member', 'agent', 200, 'agent'],
  ['GET', '/test-access/member', 'ownerTenantQuery', 200, 'owner'],
  ['GET', '/test-access/member', 'ownerWithLowercaseBearer', 200, 'owner'],
  ['GET', '/test-access/member', 'readKey', 200, 'agent'],
  ['HEAD', '/test-access/member', 'readKey', 200],
  ['GET', '/test-access/member', 'writeKey', 200, 'agent'],
  ['GET', '/test-access/member', 'oldKey', 200, 'agent'],
  ['GET', '/test-access/member', 'writeKeyOwnTenant', 200, 'agent'],
  ['GET', '/test-access/member', 'writeKeyOwnTenantQuery', 200, 'agent'],
  ...workspaceDenials('POST', '/test-access/member'),
  ['POST', '/test-access/member', 'bodyAccessToken', 401, UNAUTHORIZED],
  ['POST', '/test-access/member', 'readKey', 403, READ_ONLY],
  ['POST', '/test-access/member', 'oldKey', 403, READ_ONLY],
  ['POST', '/test-access/member', 'writeKey', 201, 'agent'],
  ['POST', '/test-access/member', 'agent', 201, 'agent'],
  ['POST', '/test-access/member', 'owner', 201, 'owner'],

  // session: session members only.
  ...workspaceDenials('GET', '/test-access/session'),
  ['GET', '/test-access/session', 'writeKey', 403, NO_ADMIN_KEYS],
  ['GET', '/test-access/session', 'readKey', 403, NO_ADMIN_KEYS],
  ['GET', '/test-access/session', 'agent', 200, 'agent'],
  ['GET', '/test-access/session', 'owner', 200, 'owner'],

  // console: session owner or admin.
  ...workspaceDenials('GET', '/test-access/console'),
  ...workspaceDenials('POST', '/test-access/console'),
  ['GET', '/test-access/console', 'writeKey', 403, NO_ADMIN_KEYS],
  ['GET', '/test-access/console', 'readKey', 403, NO_ADMIN_KEYS],
  ['GET', '/test-access/console', 'agent', 403, ADMIN_REQUIRED],
  ['GET', '/test-access/console', 'admin', 200, 'admin'],
  ['GET', '/test-access/console', 'owner', 200, 'owner'],
  ['POST', '/test-access/console', 'writeKey', 403, NO_ADMIN_KEYS],
  ['POST', '/test-access/console', 'agent', 403, ADMIN_REQUIRED],
  ['POST', '/test-access/console', 'admin', 201, 'admin'],

  // admin session: a member route for owners/admins, with the route's own text.
  ...workspaceDenials('POST', '/test-access/assign'),
  ['POST', '/test-access/assign', 'writeKey', 403, ASSIGN_TEXT],
  ['POST', '/test-access/assign', 'agent', 403, ASSIGN_TEXT],
  ['POST', '/test-access/assign', 'admin', 201, 'admin'],
  ['POST', '/test-access/assign', 'owner', 201, 'owner'],

  // A method that overrides a console class with @Member() is a plain member route.
  ['GET', '/test-access/console-class/member', 'agent', 200, 'agent'],
  ['GET', '/test-access/console-class/member', 'readKey', 200, 'agent'],
  ['GET', '/test-access/console-class/console', 'agent', 403, ADMIN_REQUIRED],
  ['GET', '/test-access/console-class/console', 'readKey', 403, NO_ADMIN_KEYS],

  // Check order (docs/api.md#check-order): 401 → key/workspace 403 → console-only 403 → read-only 403 → tenant → role → 402 → 400.
  ['POST', '/test-access/console', 'readKey', 403, NO_ADMIN_KEYS],
  ['POST', '/test-access/console', 'readKeyOtherTenant', 403, OTHER_WORKSPACE],
  ['POST', '/test-access/member', 'readKeyOtherTenant', 403, OTHER_WORKSPACE],
  ['POST', '/test-access/assign', 'readKey', 403, READ_ONLY],
  ['POST', '/test-access/validated', 'none', 401, UNAUTHORIZED],
  ['POST', '/test-access/validated', 'readKey', 403, READ_ONLY],
  ['POST', '/test-access/validated', 'outsider', 403, FORBIDDEN],
  ['POST', '/test-access/validated', 'agent', 400, 'text must be a string'],

  // The API key routes (console).
  ...workspaceDenials('GET', '/api/keys'),
  ...workspaceDenials('POST', '/api/keys'),
  ['GET', '/api/keys', 'owner', 200],
  ['GET', '/api/keys', 'admin', 200],
  ['GET', '/api/keys', 'agent', 403, ADMIN_REQUIRED],
  ['GET', '/api/keys', 'readKey', 403, NO_ADMIN_KEYS],
  ['GET', '/api/keys', 'writeKey', 403, NO_ADMIN_KEYS],
  ['POST', '/api/keys', 'readKey', 403, NO_ADMIN_KEYS],
  ['POST', '/api/keys', 'writeKey', 403, NO_ADMIN_KEYS],
  ['POST', '/api/keys', 'agent', 403, ADMIN_REQUIRED],
  ['POST', '/api/keys', 'owner', 400, 'name is required (1 to 100 characters)'],
  ['DELETE', '/api/keys/00000000-0000-4000-8000-000000000000', 'writeKey', 403, NO_ADMIN_KEYS],
  ['DELETE', '/api/keys/00000000-0000-4000-8000-000000000000', 'agent', 403, ADMIN_REQUIRED],
  ['DELETE', '/api/keys/00000000-0000-4000-8000-000000000000', 'admin', 404, 'API key not found'],
  ['DELETE', '/api/keys/nope', 'admin', 400, 'invalid API key id'],

  // Other modules' real routes, one per label (route-sweep.spec.ts covers every route's refusals).
  ['GET', '/api/workspace', 'readKey', 200],
  ['GET', '/api/workspace', 'agent', 200],
  ['GET', '/api/workspace', 'otherKey', 403, OTHER_WORKSPACE],
  ['PATCH', '/api/workspace', 'readKey', 403, NO_ADMIN_KEYS],
  ['PATCH', '/api/workspace', 'agent', 403, ADMIN_REQUIRED],
  ['GET', '/api/members', 'agent', 200],
  ['GET', '/api/members', 'writeKey', 403, NO_ADMIN_KEYS],
  ['GET', '/api/workspaces', 'ownerNoTenant', 200],
  ['GET', '/api/workspaces', 'writeKey', 403, NO_ADMIN_KEYS],
  ['GET', '/api/workspaces', 'none', 401, UNAUTHORIZED],
  ['GET', '/api/auth/me', 'outsider', 200],
  ['GET', '/api/auth/me', 'readKey', 403, NO_ADMIN_KEYS],
  ['GET', '/api/auth/me', 'lowercaseBearer', 401, UNAUTHORIZED],
  ['GET', '/api/conversations', 'readKey', 200],
  ['GET', '/api/conversations', 'agent', 200],
  ['GET', '/api/conversations', 'xApiKey', 401, UNAUTHORIZED],
  ['POST', '/api/conversations', 'readKey', 403, READ_ONLY],
  ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/assign', 'writeKey', 403, 'only admins can assign conversations'],
  ['POST', '/api/conversations/00000000-0000-4000-8000-000000000000/assign', 'agent', 403, 'only admins can assign conversations'],
];

describe('access matrix (SUBSCRIPTIONS_ENFORCED off)', () => {
  let t: TestApp;
  let x: AccessFixtures;
  let as: ReturnType<typeof callers>;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [AccessProbeController, ConsoleClassProbeController] });
    x = await buildFixtures(t);
    as = callers(x);
  });
  afterAll(async () => {
    await t?.close();
  });

  // Every row gets five cells: with four, Jest would pass its `done` callback as the fifth argument.
  const rows = ROWS.map(([method, path, caller, status, text]): [Method, string, CallerName, number, string] => [method, path, caller, status, text ?? '']);

  it.each(rows)('%s %s as %s → %i %s', async (method, path, caller, status, text) => {
    const res = await send(t, method, path, as[caller]);
    // Status and body together, so a failure shows what the route actually answered.
    if (status >= 400) expect({ status: res.status, body: res.body }).toEqual({ status, body: { error: text } });
    else if (text) expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { role: text, workspace_id: x.a.id } });
    else expect(res.status).toBe(status);
  });

  it('a key acts in its own workspace when none is named', async () => {
    const res = await send(t, 'GET', '/test-access/member', as.otherKeyAlone);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workspace_id: x.b.id, via: 'api_key', role: 'agent' });
  });
});
