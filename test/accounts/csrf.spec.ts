import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { portOf } from '../support/raw-http.js';
import { createAccountsApp, type AccountsTestApp } from './accounts-support.js';

const REFUSED = { error: 'cross-site request refused: origin not allowed' };
const PUBLIC_ORIGIN = 'https://inbox.example.com';
const CONSOLE_ORIGIN = 'https://admin.example.com';

type Headers = Record<string, string>;

describe('CSRF: Fetch Metadata on cookie requests', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp({ env: { PUBLIC_URL: `${PUBLIC_ORIGIN}/`, CORS_ORIGINS: `${CONSOLE_ORIGIN}, https://other.example.com` } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => t.resetRateLimits());

  /** POST /api/workspaces as a signed-in user, with the given browser headers; the workspaces they own after it. */
  async function createWorkspace(headers: Headers): Promise<[number, unknown, number]> {
    const user = await t.factories.user();
    const cookie = await t.factories.sessionCookie(user.id);
    const res = await t.http().post('/api/workspaces').set('Cookie', cookie).set(headers).send({ name: 'W' });
    const me = await t.http().get('/api/auth/me').set('Cookie', cookie);
    return [res.status, res.status === 403 ? res.body : undefined, me.body.workspaces.length];
  }

  it('runs body-less POST and DELETE with only the cookie and X-Tenant-ID, as the contract lists them', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const { id, key } = await t.factories.apiKey(workspace.id);
    const revoke = await t.http().delete(`/api/keys/${id}`).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id);
    expect(revoke.status).toBe(200);
    expect((await t.http().get('/api/workspace').set('Authorization', `Bearer ${key}`)).status).toBe(401);

    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const remove = await t.http().delete(`/api/members/${agent.id}`).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id);
    expect(remove.status).toBe(200);
    expect((await t.http().get('/api/members').set('Cookie', agent.cookie).set('X-Tenant-ID', workspace.id)).status).toBe(403);

    const logout = await t.http().post('/api/auth/logout').set('Cookie', owner.cookie);
    expect(logout.status).toBe(200);
    expect((await t.http().get('/api/auth/me').set('Cookie', owner.cookie)).status).toBe(401);
  });

  it('refuses a cross-site body-less DELETE and leaves the key valid', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const { id, key } = await t.factories.apiKey(workspace.id);
    const revoke = await t
      .http()
      .delete(`/api/keys/${id}`)
      .set('Cookie', owner.cookie)
      .set('X-Tenant-ID', workspace.id)
      .set({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' });
    expect(revoke.status).toBe(403);
    expect(revoke.body).toEqual(REFUSED);
    expect(revoke.headers['content-type']).toMatch(/^application\/json/);
    expect((await t.http().get('/api/workspace').set('Authorization', `Bearer ${key}`)).status).toBe(200);
  });

  it('Sec-Fetch-Site same-origin or none passes; any other value needs a trusted Origin', async () => {
    expect(await createWorkspace({ 'Sec-Fetch-Site': 'same-origin', Origin: PUBLIC_ORIGIN })).toEqual([201, undefined, 1]);
    expect(await createWorkspace({ 'Sec-Fetch-Site': 'none' })).toEqual([201, undefined, 1]);
    for (const site of ['cross-site', 'same-site', 'something-new']) {
      expect(await createWorkspace({ 'Sec-Fetch-Site': site })).toEqual([403, REFUSED, 0]);
      expect(await createWorkspace({ 'Sec-Fetch-Site': site, Origin: 'https://evil.example' })).toEqual([403, REFUSED, 0]);
      expect(await createWorkspace({ 'Sec-Fetch-Site': site, Origin: 'null' })).toEqual([403, REFUSED, 0]);
    }
    // A sibling subdomain is same-site, not same-origin: refused like any other site.
    expect(await createWorkspace({ 'Sec-Fetch-Site': 'same-site', Origin: 'https://blog.example.com' })).toEqual([403, REFUSED, 0]);
  });

  it('allows a Console on a trusted cross-origin (PUBLIC_URL or a CORS_ORIGINS entry)', async () => {
    for (const origin of [PUBLIC_ORIGIN, CONSOLE_ORIGIN, 'https://other.example.com']) {
      expect(await createWorkspace({ 'Sec-Fetch-Site': 'cross-site', Origin: origin })).toEqual([201, undefined, 1]);
    }
    // Origins compare exactly: scheme, host and port.
    for (const origin of ['http://inbox.example.com', 'https://inbox.example.com:8443', 'https://inbox.example.com.evil.example']) {
      expect(await createWorkspace({ 'Sec-Fetch-Site': 'cross-site', Origin: origin })).toEqual([403, REFUSED, 0]);
    }
  });

  it('without Sec-Fetch-Site, an Origin must be trusted or the request’s own; without either header it passes', async () => {
    expect(await createWorkspace({ Origin: CONSOLE_ORIGIN })).toEqual([201, undefined, 1]);
    expect(await createWorkspace({ Origin: 'http://api.internal:8080', Host: 'api.internal:8080' })).toEqual([201, undefined, 1]);
    expect(await createWorkspace({ Origin: 'https://evil.example' })).toEqual([403, REFUSED, 0]);
    expect(await createWorkspace({ Origin: 'null' })).toEqual([403, REFUSED, 0]);
    // Without TRUST_PROXY the scheme is the connection's (http), whatever X-Forwarded-Proto claims.
    expect(await createWorkspace({ Origin: 'https://api.internal', Host: 'api.internal', 'X-Forwarded-Proto': 'https' })).toEqual([403, REFUSED, 0]);
    expect(await createWorkspace({})).toEqual([201, undefined, 1]);
  });

  it('accepts an Origin equal to the address the client used (scheme and Host), with no or an empty Sec-Fetch-Site', async () => {
    const port = await portOf(t.app.getHttpServer());
    const own = `http://127.0.0.1:${port}`;
    expect(await createWorkspace({ Origin: own })).toEqual([201, undefined, 1]);
    expect(await createWorkspace({ Origin: `${own}/` })).toEqual([201, undefined, 1]);
    expect(await createWorkspace({ Origin: own, 'Sec-Fetch-Site': '' })).toEqual([201, undefined, 1]);
    expect(await createWorkspace({ Origin: `HTTP://127.0.0.1:${port}` })).toEqual([201, undefined, 1]);
    expect(await createWorkspace({ Origin: own, 'Sec-Fetch-Site': 'same-origin' })).toEqual([201, undefined, 1]);
    // Another port or scheme is another origin.
    expect(await createWorkspace({ Origin: `http://127.0.0.1:${port + 1}` })).toEqual([403, REFUSED, 0]);
    expect(await createWorkspace({ Origin: `https://127.0.0.1:${port}` })).toEqual([403, REFUSED, 0]);
    expect(await createWorkspace({ Origin: `http://localhost:${port}` })).toEqual([403, REFUSED, 0]);
    expect(await createWorkspace({ Origin: 'https://evil.example', 'Sec-Fetch-Site': '' })).toEqual([403, REFUSED, 0]);
  });

  it('never checks GET, HEAD or OPTIONS', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const crossSite = { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' };
    const get = await t.http().get('/api/members').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).set(crossSite);
    expect(get.status).toBe(200);
    const head = await t.http().head('/api/workspace').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).set(crossSite);
    expect(head.status).toBe(200);
    const options = await t.http().options('/api/workspaces').set('Cookie', owner.cookie).set(crossSite);
    expect(options.status).toBe(204);
  });

  it('does not apply to API keys (no ambient credential)', async () => {
    const { key } = await t.factories.workspaceWithOwner();
    const res = await t
      .http()
      .post('/api/contacts')
      .set('Authorization', `Bearer ${key}`)
      .set({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' })
      .send({ phone: '4915112345678', name: 'Ada' });
    expect(res.status).toBe(201);
  });

  it('applies to the public sign-in routes (login CSRF), not to the contact form', async () => {
    const user = await t.factories.user({ password: 'correct horse battery' });
    const crossSite = { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' };
    const login = await t.http().post('/api/auth/login').set(crossSite).send({ email: user.email, password: 'correct horse battery' });
    expect(login.status).toBe(403);
    expect(login.body).toEqual(REFUSED);
    expect(login.headers['set-cookie']).toBeUndefined();
    for (const path of [
      '/api/auth/register',
      '/api/auth/forgot-password',
      '/api/auth/reset-password',
      '/api/auth/verify-email',
      '/api/auth/resend-verification',
      '/api/auth/google/confirm',
    ]) {
      const res = await t.http().post(path).set(crossSite).send({});
      expect([path, res.status, res.body]).toEqual([path, 403, REFUSED]);
    }
    t.resetRateLimits();
    const own = await t
      .http()
      .post('/api/auth/login')
      .set({ 'Sec-Fetch-Site': 'same-origin', Origin: PUBLIC_ORIGIN })
      .send({ email: user.email, password: 'correct horse battery' });
    expect(own.status).toBe(200);
    const console = await t
      .http()
      .post('/api/auth/login')
      .set({ 'Sec-Fetch-Site': 'cross-site', Origin: CONSOLE_ORIGIN })
      .send({ email: user.email, password: 'correct horse battery' });
    expect(console.status).toBe(200);
    // A website on another origin may post the contact form: it signs no one in.
    const contact = await t.http().post('/api/contact').set(crossSite).send({ name: 'Ada', email: 'ada@example.com', message: 'Hello' });
    expect(contact.status).toBe(200);
  });
});

describe('CSRF with TRUST_PROXY and the default CORS_ORIGINS=*', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function create(headers: Headers): Promise<number> {
    const user = await t.factories.user();
    const cookie = await t.factories.sessionCookie(user.id);
    return (await t.http().post('/api/workspaces').set('Cookie', cookie).set(headers).send({ name: 'W' })).status;
  }

  it('* trusts no origin with a cookie; PUBLIC_URL still is trusted', async () => {
    expect(await create({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' })).toBe(403);
    expect(await create({ Origin: 'https://evil.example' })).toBe(403);
    expect(await create({ 'Sec-Fetch-Site': 'cross-site', Origin: 'http://localhost:3000' })).toBe(201);
  });

  it('compares an Origin with the address the client used behind a trusted proxy', async () => {
    const proxied = { Host: 'inbox.internal', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'chat.example.org' };
    expect(await create({ ...proxied, Origin: 'https://chat.example.org' })).toBe(201);
    expect(await create({ ...proxied, Origin: 'http://chat.example.org' })).toBe(403);
    expect(await create({ ...proxied, Origin: 'https://inbox.internal' })).toBe(403);
  });
});
