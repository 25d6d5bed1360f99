import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createAccountsApp, type AccountsTestApp } from './accounts-support.js';

const NOT_JSON = 'cross-site request refused: Content-Type must be application/json';
const BAD_ORIGIN = 'cross-site request refused: origin not allowed';
// A body that is not JSON is refused for every caller before the guard chain (still a refusal).
const NOT_JSON_BODY = 'request body must be JSON (Content-Type: application/json)';

describe('CSRF rules for cookie requests', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp({ env: { PUBLIC_URL: 'https://inbox.example.com/', CORS_ORIGINS: 'https://admin.example.com, https://other.example.com' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => t.resetRateLimits());

  it('refuses a state-changing cookie request that is not JSON', async () => {
    const user = await t.factories.user();
    const cookie = await t.factories.sessionCookie(user.id);
    const form = await t.http().post('/api/workspaces').set('Cookie', cookie).type('form').send('name=Evil');
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ error: NOT_JSON_BODY });
    const plain = await t.http().post('/api/auth/logout').set('Cookie', cookie).set('Content-Type', 'text/plain').send('{}');
    expect(plain.status).toBe(400);
    expect(plain.body).toEqual({ error: NOT_JSON_BODY });
    const noType = await t.http().post('/api/auth/logout').set('Cookie', cookie);
    expect(noType.status).toBe(403);
    expect(noType.body).toEqual({ error: NOT_JSON });
    // Nothing happened: the session still works and no workspace was created.
    expect((await t.http().get('/api/auth/me').set('Cookie', cookie)).body.workspaces).toEqual([]);

    const json = await t.http().post('/api/workspaces').set('Cookie', cookie).set('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify({ name: 'Fine' }));
    expect(json.status).toBe(201);
  });

  it('applies to DELETE and PATCH too, and never to GET', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const del = await t.http().delete(`/api/members/${agent.id}`).set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id);
    expect(del.status).toBe(403);
    expect(del.body).toEqual({ error: NOT_JSON });
    const patch = await t.http().patch('/api/workspace').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).type('text/plain');
    expect(patch.status).toBe(403);
    const get = await t.http().get('/api/members').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).set('Origin', 'https://evil.example');
    expect(get.status).toBe(200);
  });

  it('checks Origin when present: PUBLIC_URL and explicit CORS_ORIGINS entries only', async () => {
    const user = await t.factories.user();
    const cookie = await t.factories.sessionCookie(user.id);
    const create = (origin?: string) => {
      const req = t.http().post('/api/workspaces').set('Cookie', cookie);
      return (origin === undefined ? req : req.set('Origin', origin)).send({ name: 'W' });
    };
    for (const origin of ['https://evil.example', 'http://inbox.example.com', 'https://inbox.example.com.evil.example', 'null']) {
      const res = await create(origin);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: BAD_ORIGIN });
    }
    for (const origin of [undefined, 'https://inbox.example.com', 'https://admin.example.com', 'https://other.example.com']) {
      expect((await create(origin)).status).toBe(201);
    }
  });

  it('does not apply to API keys (no ambient credential)', async () => {
    const { key } = await t.factories.workspaceWithOwner();
    // A key on a console route gets the key refusal, not a CSRF refusal, whatever its type and origin.
    const res = await t.http().patch('/api/workspace').set('Authorization', `Bearer ${key}`).set('Origin', 'https://evil.example').type('text/plain');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'API keys cannot administer workspaces' });
  });

  it('public sign-in routes accept JSON only (no cross-site form posts)', async () => {
    const user = await t.factories.user();
    const form = await t.http().post('/api/auth/login').type('form').send(`email=${encodeURIComponent(user.email)}&password=x`);
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ error: NOT_JSON_BODY });
    for (const path of ['/api/auth/register', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/auth/verify-email', '/api/auth/resend-verification', '/api/auth/google/confirm', '/api/contact']) {
      const withBody = await t.http().post(path).set('Content-Type', 'text/plain').send('{}');
      expect([path, withBody.status, withBody.body]).toEqual([path, 400, { error: NOT_JSON_BODY }]);
      const withoutBody = await t.http().post(path).set('Content-Type', 'text/plain');
      expect([path, withoutBody.status, withoutBody.body]).toEqual([path, 403, { error: NOT_JSON }]);
    }
  });
});

describe('CSRF with the default CORS_ORIGINS=*', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('* does not make every origin allowed for cookie requests; PUBLIC_URL still is', async () => {
    const user = await t.factories.user();
    const cookie = await t.factories.sessionCookie(user.id);
    const evil = await t.http().post('/api/workspaces').set('Cookie', cookie).set('Origin', 'https://evil.example').send({ name: 'W' });
    expect(evil.status).toBe(403);
    expect(evil.body).toEqual({ error: BAD_ORIGIN });
    const own = await t.http().post('/api/workspaces').set('Cookie', cookie).set('Origin', 'http://localhost:3000').send({ name: 'W' });
    expect(own.status).toBe(201);
  });
});
