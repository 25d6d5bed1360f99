import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createAccountsApp, type AccountsTestApp } from '../accounts/accounts-support.js';

const TOO_DEEP = { error: 'JSON body nested too deeply (at most 64 levels)' };
const ILL_FORMED = { error: 'text must be well-formed Unicode (no lone surrogates)' };
const LONE = '\\ud800'; // as escaped in JSON text: JSON.stringify would not write it

const nested = (depth: number, inner = '1'): string => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

const PUBLIC_POSTS = [
  '/api/auth/register',
  '/api/auth/login',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
  '/api/auth/verify-email',
  '/api/auth/resend-verification',
  '/api/contact',
];

describe('hostile JSON: nesting depth and ill-formed Unicode', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => t.resetRateLimits());

  const postRaw = (path: string, text: string) => t.http().post(path).set('Content-Type', 'application/json').send(text);

  it('refuses 10,000 nested arrays with 400 on every public route', async () => {
    for (const path of PUBLIC_POSTS) {
      const res = await postRaw(path, nested(10_000));
      expect([path, res.status, res.body]).toEqual([path, 400, TOO_DEEP]);
    }
  });

  it('refuses it on session routes too (POST /api/keys), before the body reaches the key', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const res = await t
      .http()
      .post('/api/keys')
      .set('Cookie', owner.cookie)
      .set('X-Tenant-ID', workspace.id)
      .set('Content-Type', 'application/json')
      .send(`{"name":"k","scope":"read","x":${nested(100)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_DEEP);
    const keys = await t.http().get('/api/keys').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id);
    expect(keys.status).toBe(200);
    expect(JSON.stringify(keys.body)).not.toContain('"name":"k"');
  });

  it('counts nesting in a field the route would drop, and allows 64 levels exactly', async () => {
    const email = `deep-${Date.now()}@example.com`;
    const body = (depth: number) => `{"email":"${email}","password":"correct horse battery","name":"Ada","accept_terms":true,"junk":${nested(depth - 1)}}`;
    const tooDeep = await postRaw('/api/auth/register', body(65));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body).toEqual(TOO_DEEP);
    const deepest = await postRaw('/api/auth/register', body(64));
    expect(deepest.status).toBe(201);
  });

  it('refuses an object with more than 1,000 fields with 400, on public routes too, and counts each object alone', async () => {
    const TOO_WIDE = { error: 'JSON object has too many fields (at most 1000)' };
    const fields = (count: number, prefix = 'k'): string => Array.from({ length: count }, (_, i) => `"${prefix}${i}":0`).join(',');
    // 80,000 unknown fields (1 MB) held the process's event loop for seconds while validation dropped them.
    for (const path of ['/api/auth/login', '/api/auth/register', '/api/contact']) {
      const res = await postRaw(path, `{${fields(80_000)},"email":"x@example.com","password":"y"}`);
      expect([path, res.status, res.body]).toEqual([path, 400, TOO_WIDE]);
    }
    // 1,000 exactly, in each of several objects, and colons inside strings: the ordinary path.
    const email = `wide-${Date.now()}@example.com`;
    const ok = await postRaw(
      '/api/auth/forgot-password',
      `{"email":"${email}","a":{${fields(999)}},"b":[{${fields(1000)}},{${fields(1000)}}],"note":"${':'.repeat(5000)}"}`,
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true });
    // Small objects, many of them: at most 10,000 fields in all.
    const many = await postRaw(
      '/api/auth/login',
      `{"email":"x@example.com","password":"y","junk":[${Array.from({ length: 11 }, () => `{${fields(1000)}}`).join(',')}]}`,
    );
    expect(many.status).toBe(400);
    expect(many.body).toEqual({ error: 'JSON body has too many fields (at most 10000)' });
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const res = await postRaw('/api/auth/forgot-password', `{"email":"x@example.com","note":"\\"${'['.repeat(500)}"}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('refuses a body of a few megabytes of [ at once', async () => {
    const res = await postRaw('/api/auth/login', '['.repeat(4_000_000));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_DEEP);
  });

  it.each(['/api/auth/register', '/api/auth/login', '/api/auth/forgot-password', '/api/auth/resend-verification'])(
    'refuses a lone surrogate in the email on %s with 400',
    async (path) => {
      const res = await postRaw(path, `{"email":"${LONE}@example.com","password":"correct horse battery","name":"Ada","accept_terms":true}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(ILL_FORMED);
    },
  );

  it('refuses lone surrogates anywhere in a body (low half, keys, dropped fields), accepts proper pairs', async () => {
    for (const text of [
      '{"email":"a\\udc00b@example.com"}',
      `{"email":"a@example.com","x${LONE}":1}`,
      `{"email":"a@example.com","junk":[["${LONE}"]]}`,
      '{"email":"a@example.com","x":"\\ude00\\ud83d"}',
    ]) {
      const res = await postRaw('/api/auth/forgot-password', text);
      expect([text, res.status, res.body]).toEqual([text, 400, ILL_FORMED]);
    }
    const pair = await postRaw('/api/auth/forgot-password', '{"email":"a@example.com","x":"\\ud83d\\ude00"}');
    expect(pair.status).toBe(200);
  });

  it('refuses a body whose bytes are not UTF-8 (nothing stored as U+FFFD)', async () => {
    const { key } = await t.factories.workspaceWithOwner();
    // The bytes exactly as given (superagent would serialize a Buffer as JSON).
    const postBytes = (path: string, bytes: Buffer) =>
      t
        .http()
        .post(path)
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', 'application/json')
        .serialize(() => bytes as unknown as string)
        .send({});
    const bytes = Buffer.concat([Buffer.from('{"phone":"4915112345670","name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await postBytes('/api/contacts', bytes);
    expect([res.status, res.body]).toEqual([400, { error: 'JSON body must be valid UTF-8' }]);
    const list = await t.http().get('/api/contacts').set('Authorization', `Bearer ${key}`);
    expect(list.body).toEqual([]);
    const latin1 = await postBytes('/api/auth/forgot-password', Buffer.from('{"email":"caf\xe9@example.com"}', 'latin1'));
    expect([latin1.status, latin1.body]).toEqual([400, { error: 'JSON body must be valid UTF-8' }]);
    const valid = await postBytes('/api/contacts', Buffer.from('{"phone":"4915112345670","name":"Café"}'));
    expect([valid.status, valid.body.name]).toEqual([201, 'Café']);
  });

  it('stores text with a proper surrogate pair, and refuses a query string whose escapes are not UTF-8', async () => {
    const { key } = await t.factories.workspaceWithOwner();
    const created = await t
      .http()
      .post('/api/contacts')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send('{"phone":"4915112345679","name":"Ada \\ud83d\\ude00"}');
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Ada 😀');
    // A lone surrogate's UTF-8 bytes, a byte no UTF-8 starts with, and escapes that are none: 400,
    // as in the path (Express would search for U+FFFD, or for the text as typed).
    for (const query of ['q=%ED%A0%80', 'q=%FF', 'q=%uD800', 'q=100%', 'a=1&q=%E2%82']) {
      const res = await t.http().get(`/api/contacts?${query}`).set('Authorization', `Bearer ${key}`);
      expect([query, res.status, res.body]).toEqual([query, 400, { error: 'malformed URL encoding' }]);
    }
    for (const query of ['q=%F0%9F%98%80', 'q=caf%C3%A9', 'q=a+b%2B%25']) {
      const res = await t.http().get(`/api/contacts?${query}`).set('Authorization', `Bearer ${key}`);
      expect([query, res.status]).toEqual([query, 200]);
    }
    const nul = await t.http().get('/api/contacts?q=%00').set('Authorization', `Bearer ${key}`);
    expect(nul.status).toBe(400);
    // Input is checked after the guards: without credentials it is the 401 all the same.
    const anonymous = await t.http().get('/api/contacts?q=%FF');
    expect(anonymous.status).toBe(401);
  });
});
