import type { Response } from 'supertest';
import { ApiKeyService } from '../../../src/modules/auth/api-keys/api-key.service.js';
import type { TestUser, TestWorkspace } from '../../support/factories.js';
import type { TestApp } from '../../support/test-app.js';

export const DAY_MS = 24 * 3600 * 1000;

/** How a request presents itself: headers, query parameters and (for writes) a body. */
export interface Caller {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

type SignedIn = TestUser & { cookie: string };

export interface AccessFixtures {
  a: TestWorkspace;
  b: TestWorkspace;
  owner: SignedIn;
  admin: SignedIn;
  agent: SignedIn;
  /** A member of workspace B only. */
  outsider: SignedIn;
  readKey: string;
  writeKey: string;
  /** Created 366 days ago: the clock has moved past its 365-day life. */
  expiredKey: string;
  /** Created 364 days ago: still valid. */
  oldKey: string;
  revokedKey: string;
  /** A write key of workspace B. */
  otherKey: string;
}

/** Workspace A with an owner, an admin, an agent and keys of every kind; workspace B next to it. */
export async function buildFixtures(t: TestApp, subscriptionStatus: 'none' | 'active' = 'none'): Promise<AccessFixtures> {
  const f = t.factories;
  const a = await f.workspace({ subscriptionStatus });
  const b = await f.workspace({ subscriptionStatus });
  const [owner, admin, agent, outsider] = await Promise.all([
    f.signedInMember(a.id, 'owner'),
    f.signedInMember(a.id, 'admin'),
    f.signedInMember(a.id, 'agent'),
    f.signedInMember(b.id, 'owner'),
  ]);
  const revoked = await f.apiKey(a.id, 'write');
  await t.app.get(ApiKeyService).revoke(a.id, revoked.id);
  return {
    a,
    b,
    owner,
    admin,
    agent,
    outsider,
    readKey: (await f.apiKey(a.id, 'read')).key,
    writeKey: (await f.apiKey(a.id, 'write')).key,
    expiredKey: (await f.apiKey(a.id, 'write', new Date(Date.now() - 366 * DAY_MS))).key,
    oldKey: (await f.apiKey(a.id, 'read', new Date(Date.now() - 364 * DAY_MS))).key,
    revokedKey: revoked.key,
    otherKey: (await f.apiKey(b.id, 'write')).key,
  };
}

const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });

/** Every way of calling that the access table talks about, by name. */
export function callers(x: AccessFixtures) {
  const session = (user: SignedIn, tenant = x.a.id): Caller => ({ headers: { Cookie: user.cookie, 'X-Tenant-ID': tenant } });
  return {
    none: {},
    owner: session(x.owner),
    admin: session(x.admin),
    agent: session(x.agent),
    outsider: session(x.outsider),
    ownerNoTenant: { headers: { Cookie: x.owner.cookie } },
    ownerTenantQuery: { headers: { Cookie: x.owner.cookie }, query: { tenant: x.a.id } },
    ownerBadTenant: session(x.owner, 'not-a-uuid'),
    ownerTwoTenants: { headers: { Cookie: x.owner.cookie, 'X-Tenant-ID': x.a.id }, query: { tenant: x.b.id } },
    readKey: { headers: bearer(x.readKey) },
    writeKey: { headers: bearer(x.writeKey) },
    oldKey: { headers: bearer(x.oldKey) },
    writeKeyOwnTenant: { headers: { ...bearer(x.writeKey), 'X-Tenant-ID': x.a.id.toUpperCase() } },
    writeKeyOwnTenantQuery: { headers: bearer(x.writeKey), query: { tenant: x.a.id } },
    writeKeyOtherTenant: { headers: { ...bearer(x.writeKey), 'X-Tenant-ID': x.b.id } },
    writeKeyOtherTenantQuery: { headers: bearer(x.writeKey), query: { tenant: x.b.id } },
    writeKeyOwnHeaderOtherQuery: { headers: { ...bearer(x.writeKey), 'X-Tenant-ID': x.a.id }, query: { tenant: x.b.id } },
    writeKeyBadTenant: { headers: { ...bearer(x.writeKey), 'X-Tenant-ID': 'not-a-uuid' } },
    readKeyOtherTenant: { headers: { ...bearer(x.readKey), 'X-Tenant-ID': x.b.id } },
    otherKey: { headers: { ...bearer(x.otherKey), 'X-Tenant-ID': x.a.id } },
    otherKeyAlone: { headers: bearer(x.otherKey) },
    expiredKey: { headers: bearer(x.expiredKey) },
    expiredKeyOtherTenant: { headers: { ...bearer(x.expiredKey), 'X-Tenant-ID': x.b.id } },
    revokedKey: { headers: bearer(x.revokedKey) },
    unknownKey: { headers: bearer(`pk_live_${'0'.repeat(48)}`) },
    garbageBearer: { headers: bearer('not-a-key') },
    lowercaseBearer: { headers: { Authorization: `bearer ${x.writeKey}` } },
    uppercaseBearer: { headers: { Authorization: `BEARER ${x.writeKey}` } },
    doubleSpaceBearer: { headers: { Authorization: `Bearer  ${x.writeKey}` } },
    xApiKey: { headers: { 'X-API-Key': x.writeKey } },
    queryAccessToken: { query: { access_token: x.writeKey } },
    queryApiKey: { query: { api_key: x.writeKey, key: x.writeKey } },
    bodyAccessToken: { body: { access_token: x.writeKey } },
    /** A valid session plus a mis-typed key header: the key is not recognised, the session decides. */
    ownerWithLowercaseBearer: { headers: { ...session(x.owner).headers, Authorization: `bearer ${x.writeKey}` } },
  } satisfies Record<string, Caller>;
}

export type CallerName = keyof ReturnType<typeof callers>;

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Sends one request as `caller` (a JSON body on writes, so validation never sees a missing body). */
export function send(t: TestApp, method: Method, path: string, caller: Caller): Promise<Response> {
  const query = new URLSearchParams(caller.query ?? {}).toString();
  const url = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
  const agent = t.http();
  let request =
    method === 'GET'
      ? agent.get(url)
      : method === 'HEAD'
        ? agent.head(url)
        : method === 'POST'
          ? agent.post(url)
          : method === 'PUT'
            ? agent.put(url)
            : method === 'PATCH'
              ? agent.patch(url)
              : agent.delete(url);
  for (const [name, value] of Object.entries(caller.headers ?? {})) request = request.set(name, value);
  if (method !== 'GET' && method !== 'HEAD') request = request.send(caller.body ?? {});
  return request;
}
