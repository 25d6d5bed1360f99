import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { createAccountsApp, type AccountsTestApp } from './accounts-support.js';

const TOO_MANY = 'too many attempts, please wait a minute and try again';

type Attempt = (ip: string) => Promise<Response>;

function expectLimited(res: Response, retryAfter: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: TOO_MANY });
  expect(res.headers['retry-after']).toBe(String(retryAfter));
  expect(Object.keys(res.headers).filter((h) => h.toLowerCase().startsWith('x-ratelimit'))).toEqual([]);
}

describe('rate limits (per client IP, sliding minute)', () => {
  let t: AccountsTestApp;
  let n = 0;
  const freshIp = (): string => `203.0.113.${++n}`;

  beforeAll(async () => {
    t = await createAccountsApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => t.resetRateLimits());

  const post =
    (path: string, body: object): Attempt =>
    (ip) =>
      t.http().post(path).set('X-Forwarded-For', ip).send(body);
  const get =
    (path: string): Attempt =>
    (ip) =>
      t.http().get(path).set('X-Forwarded-For', ip);

  // Cheap requests: each fails on its own merits (bad token, wrong password...), which still counts.
  const register = post('/api/auth/register', { email: 'x', password: 'short', name: 'x' });
  const login = post('/api/auth/login', { email: 'nobody@example.test', password: 'wrong password' });
  const resetPassword = post('/api/auth/reset-password', { token: 'bogus', password: 'long enough' });
  const verifyEmail = post('/api/auth/verify-email', { token: 'bogus' });
  const googleConfirm = post('/api/auth/google/confirm', { accept_terms: true });
  const forgotPassword = post('/api/auth/forgot-password', { email: 'nobody@example.test' });
  const resendVerification = post('/api/auth/resend-verification', { email: 'nobody@example.test' });
  const googleStart = get('/api/auth/google/start');
  const googlePending = get('/api/auth/google/pending');
  const contact = post('/api/contact', { name: 'Visitor', email: 'visitor@example.test', message: 'Hello' });

  async function spend(ip: string, attempts: Attempt[]): Promise<void> {
    for (const attempt of attempts) {
      const res = await attempt(ip);
      expect(res.status).not.toBe(429);
    }
  }

  const cases: { group: string; limit: number; routes: Attempt[]; other: Attempt }[] = [
    {
      group: 'register/login/reset-password/verify-email/google-confirm',
      limit: 10,
      routes: [register, login, resetPassword, verifyEmail, googleConfirm],
      other: forgotPassword,
    },
    { group: 'forgot-password/resend-verification', limit: 5, routes: [forgotPassword, resendVerification], other: login },
    { group: 'google/start and google/pending', limit: 20, routes: [googleStart, googlePending], other: contact },
    { group: 'contact form', limit: 3, routes: [contact], other: googleStart },
  ];

  for (const { group, limit, routes, other } of cases) {
    describe(group, () => {
      it(`shares ${limit} per minute across its routes; attempt ${limit + 1} is 429 with Retry-After`, async () => {
        const ip = freshIp();
        // Round-robin over the group's routes: the budget is shared, not per route.
        await spend(
          ip,
          Array.from({ length: limit }, (_, i) => routes[i % routes.length]!),
        );
        for (const route of routes) expectLimited(await route(ip), 60);
        t.clock.advance(20_500);
        expectLimited(await routes[0]!(ip), 40);
      });

      it('leaves other IPs and other groups alone', async () => {
        const ip = freshIp();
        await spend(
          ip,
          Array.from({ length: limit }, () => routes[0]!),
        );
        expectLimited(await routes[0]!(ip), 60);
        expect((await routes[0]!(freshIp())).status).not.toBe(429);
        expect((await other(ip)).status).not.toBe(429);
      });

      it('slides: a slot frees exactly one minute after the attempt that took it', async () => {
        const ip = freshIp();
        const early = Math.ceil(limit / 2);
        await spend(
          ip,
          Array.from({ length: early }, () => routes[0]!),
        );
        t.clock.advance(30_000);
        await spend(
          ip,
          Array.from({ length: limit - early }, () => routes[0]!),
        );
        expectLimited(await routes[0]!(ip), 30);

        t.clock.advance(29_999);
        expectLimited(await routes[0]!(ip), 1);
        t.clock.advance(1);
        // The early attempts left the window; the later ones still count.
        await spend(
          ip,
          Array.from({ length: early }, () => routes[0]!),
        );
        expectLimited(await routes[0]!(ip), 30);
      });
    });
  }

  it('does not count refused attempts: a client hammering the limit gets in again after a minute', async () => {
    const ip = freshIp();
    await spend(ip, [contact, contact, contact]);
    for (let i = 0; i < 10; i++) {
      t.clock.advance(5_000);
      expect((await contact(ip)).status).toBe(429);
    }
    t.clock.advance(10_000);
    expect((await contact(ip)).status).toBe(200);
  });

  it.each([
    ['malformed JSON', 'application/json', '{bad', 'malformed JSON body'],
    ['a body that is not JSON', 'text/plain', '{bad', 'request body must be JSON (Content-Type: application/json)'],
    ['JSON nested too deeply', 'application/json', '['.repeat(65) + ']'.repeat(65), 'JSON body nested too deeply (at most 64 levels)'],
    ['a gzip body that is not gzip', 'application/json; gzip', 'xx', 'request body could not be decompressed (Content-Encoding: gzip)'],
  ])('counts login attempts with %s like any other (the limit comes before input validation)', async (_what, type, body, refusal) => {
    const ip = freshIp();
    // 'application/json; gzip': that Content-Type with Content-Encoding gzip.
    const [contentType, encoding] = type.split('; ');
    const attempt = (): Promise<Response> => {
      const request = t.http().post('/api/auth/login').set('X-Forwarded-For', ip).set('Content-Type', contentType!);
      return (encoding ? request.set('Content-Encoding', encoding) : request).send(body);
    };
    for (let i = 0; i < 10; i++) {
      const res = await attempt();
      expect([i, res.status, res.body]).toEqual([i, 400, { error: refusal }]);
    }
    expectLimited(await attempt(), 60);
    expectLimited(await attempt(), 60);
    // The budget is the group's: a well-formed attempt is refused too.
    expectLimited(await login(ip), 60);
  });

  it('counts an IPv6 client by its /64: one /64 shares a budget however it spells or rotates addresses', async () => {
    for (const ip of ['2001:db8:aa:1::1', '2001:db8:aa:1::2', '2001:db8:aa:1:ffff:ffff:ffff:ffff']) expect((await contact(ip)).status).toBe(200);
    expectLimited(await contact('2001:db8:aa:1:1234:5678:9abc:def0'), 60);
    expectLimited(await contact('2001:DB8:AA:1:0:0:0:9'), 60);
    // The neighbouring /64 (same /48) is another client.
    expect((await contact('2001:db8:aa:2::1')).status).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, not as a /64', async () => {
    const ip = freshIp();
    await spend(ip, [contact, contact]);
    expect((await contact(`::ffff:${ip}`)).status).toBe(200);
    expectLimited(await contact(ip), 60);
    // Every mapped address shares the first 64 bits (::): they must not share one budget.
    expect((await contact(`::ffff:${freshIp()}`)).status).toBe(200);
  });

  it('does not limit routes outside the groups (providers)', async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await get('/api/auth/providers')(ip)).status).toBe(200);
  });
});

describe('rate limits without TRUST_PROXY', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ignores X-Forwarded-For: the client cannot pick a new IP per request', async () => {
    const send = (ip: string) =>
      t.http().post('/api/contact').set('X-Forwarded-For', ip).send({ name: 'Visitor', email: 'visitor@example.test', message: 'Hello' });
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) expect((await send(ip)).status).toBe(200);
    expectLimited(await send('198.51.100.4'), 60);
  });
});

describe('rate limits with TRUST_PROXY as a hop count', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts the address the proxy appended, not one the client wrote in front of it', async () => {
    // The proxy appends the real client address; whatever the client sent stays to its left.
    const send = (forged: string) =>
      t.http().post('/api/contact').set('X-Forwarded-For', `${forged}, 192.0.2.50`).send({ name: 'Visitor', email: 'visitor@example.test', message: 'Hello' });
    for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) expect((await send(forged)).status).toBe(200);
    expectLimited(await send('198.51.100.4'), 60);
  });
});
