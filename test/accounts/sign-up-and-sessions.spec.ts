import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { linkIn, SmtpCapture } from '../support/smtp-capture.js';
import { createAccountsApp, DAY, sessionCookieOf, sessionSetCookie, type AccountsTestApp } from './accounts-support.js';

describe('sign-up, verification, sign-in and sessions', () => {
  let smtp: SmtpCapture;
  let t: AccountsTestApp;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    t = await createAccountsApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://console.test:8080', CONTACT_EMAIL: 'sales@example.test' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });
  beforeEach(() => t.resetRateLimits());

  it('register → verification mail → verify → login → me → logout → the old cookie is 401', async () => {
    const register = await t.http().post('/api/auth/register').send({ email: 'Ada@Example.TEST', password: 'analytical engine', name: 'Ada' });
    expect(register.status).toBe(201);
    expect(register.body).toEqual({
      user: { id: expect.any(String), email: 'ada@example.test', name: 'Ada', email_verified: false, created_at: expect.any(String) },
    });
    const registerCookie = sessionCookieOf(register);

    const mail = await smtp.waitFor('ada@example.test', (m) => m.subject === 'Confirm your email address');
    const link = linkIn(mail, '/verify-email');
    expect(link.origin).toBe('http://console.test:8080');
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stored hashed only.
    const stored: { token_hash: string }[] = await t.dataSource.query(`SELECT token_hash FROM email_tokens`);
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    expect((await t.http().post('/api/auth/verify-email').send({ token })).body).toEqual({ ok: true });
    const reused = await t.http().post('/api/auth/verify-email').send({ token });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ error: 'invalid or expired token' });

    const login = await t.http().post('/api/auth/login').send({ email: 'ADA@example.test', password: 'analytical engine' });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ user: expect.objectContaining({ email: 'ada@example.test', email_verified: true }), workspaces: [] });
    const cookie = sessionCookieOf(login);
    expect(cookie).not.toBe(registerCookie);

    const me = await t.http().get('/api/auth/me').set('Cookie', cookie);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: expect.objectContaining({ email: 'ada@example.test', name: 'Ada' }), workspaces: [] });

    const logout = await t.http().post('/api/auth/logout').set('Cookie', cookie).send({});
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ ok: true });
    expect(sessionSetCookie(logout)).toMatch(/^svc_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);

    const after = await t.http().get('/api/auth/me').set('Cookie', cookie);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'unauthorized' });
    // The register session is a different session and still works.
    expect((await t.http().get('/api/auth/me').set('Cookie', registerCookie)).status).toBe(200);
  });

  it('sets svc_session HttpOnly, SameSite=Lax, Path=/, Max-Age 7 days, not Secure on http', async () => {
    const user = await t.factories.user();
    const res = await t.http().post('/api/auth/login').send({ email: user.email, password: user.password });
    expect(sessionSetCookie(res)).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('refuses a duplicate email (any case), a short password and a bad email', async () => {
    await t.factories.user({ email: 'taken@example.test' });
    const dup = await t.http().post('/api/auth/register').send({ email: 'TAKEN@example.test', password: 'long enough', name: 'X' });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 'an account with this email already exists' });

    const short = await t.http().post('/api/auth/register').send({ email: 'new@example.test', password: '1234567', name: 'X' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ error: 'password must be at least 8 characters' });

    const email = await t.http().post('/api/auth/register').send({ email: 'not-an-email', password: 'long enough', name: 'X' });
    expect(email.status).toBe(400);
    expect(email.body).toEqual({ error: 'email must be an email address' });
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const user = await t.factories.user();
    const wrong = await t.http().post('/api/auth/login').send({ email: user.email, password: 'not the password' });
    const unknown = await t.http().post('/api/auth/login').send({ email: 'nobody@example.test', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid email or password' });
      expect(sessionSetCookie(res)).toBeUndefined();
    }
  });

  it('never stores the password in clear (the log: log-secrecy.spec.ts)', async () => {
    await t.http().post('/api/auth/register').send({ email: 'clear@example.test', password: 'secret password 1', name: 'C' });
    const rows: { password_hash: string }[] = await t.dataSource.query(`SELECT password_hash FROM users WHERE email = 'clear@example.test'`);
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$/);
    expect(rows[0]!.password_hash).not.toContain('secret password 1');
  });

  it('forgot/reset: mails a link, revokes every session, and the token works once', async () => {
    const user = await t.factories.user({ email: 'reset@example.test' });
    const cookieA = await t.factories.sessionCookie(user.id);
    const cookieB = await t.factories.sessionCookie(user.id);

    const forgot = await t.http().post('/api/auth/forgot-password').send({ email: 'Reset@Example.test' });
    expect(forgot.body).toEqual({ ok: true });
    const mail = await smtp.waitFor('reset@example.test', (m) => m.subject === 'Reset your password');
    const token = linkIn(mail, '/reset-password').searchParams.get('token')!;

    const reset = await t.http().post('/api/auth/reset-password').send({ token, password: 'brand new password' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ ok: true });
    for (const cookie of [cookieA, cookieB]) expect((await t.http().get('/api/auth/me').set('Cookie', cookie)).status).toBe(401);

    const again = await t.http().post('/api/auth/reset-password').send({ token, password: 'another new password' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid or expired token' });

    expect((await t.http().post('/api/auth/login').send({ email: user.email, password: user.password })).status).toBe(401);
    expect((await t.http().post('/api/auth/login').send({ email: user.email, password: 'brand new password' })).status).toBe(200);
  });

  it('answers forgot-password the same for an unknown address and mails nothing', async () => {
    const res = await t.http().post('/api/auth/forgot-password').send({ email: 'ghost@example.test' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    await t.http().post('/api/auth/forgot-password').send({ email: 'marker@example.test' });
    // Mail is sent in the background; by the time a later mail arrives, an earlier one would have too.
    const marker = await t.factories.user({ email: 'marker2@example.test' });
    await t.http().post('/api/auth/forgot-password').send({ email: marker.email });
    await smtp.waitFor(marker.email);
    expect(smtp.to('ghost@example.test')).toEqual([]);
  });

  it('refuses an expired reset token (1 h) and an expired verification token (48 h)', async () => {
    const user = await t.factories.user({ email: 'late@example.test', verified: false });
    await t.http().post('/api/auth/forgot-password').send({ email: user.email });
    await t.http().post('/api/auth/resend-verification').send({ email: user.email });
    const reset = linkIn(await smtp.waitFor(user.email, (m) => m.subject === 'Reset your password'), '/reset-password');
    const verify = linkIn(await smtp.waitFor(user.email, (m) => m.subject === 'Confirm your email address'), '/verify-email');

    t.clock.advance(61 * 60_000);
    const expiredReset = await t
      .http()
      .post('/api/auth/reset-password')
      .send({ token: reset.searchParams.get('token'), password: 'whatever123' });
    expect(expiredReset.status).toBe(400);
    expect(expiredReset.body).toEqual({ error: 'invalid or expired token' });

    t.clock.advance(2 * DAY);
    const expiredVerify = await t
      .http()
      .post('/api/auth/verify-email')
      .send({ token: verify.searchParams.get('token') });
    expect(expiredVerify.status).toBe(400);
    expect(expiredVerify.body).toEqual({ error: 'invalid or expired token' });
  });

  it('resend-verification issues a new link and retires the old one; always {ok:true}', async () => {
    const user = await t.factories.user({ email: 'resend@example.test', verified: false });
    await t.http().post('/api/auth/resend-verification').send({ email: user.email });
    const first = linkIn(await smtp.waitFor(user.email), '/verify-email').searchParams.get('token')!;
    smtp.clear();
    await t.http().post('/api/auth/resend-verification').send({ email: user.email });
    const second = linkIn(await smtp.waitFor(user.email), '/verify-email').searchParams.get('token')!;

    expect((await t.http().post('/api/auth/verify-email').send({ token: first })).status).toBe(400);
    expect((await t.http().post('/api/auth/verify-email').send({ token: second })).body).toEqual({ ok: true });
    expect((await t.http().post('/api/auth/resend-verification').send({ email: 'nobody@example.test' })).body).toEqual({ ok: true });
  });

  it('providers reports password only; Google routes answer honestly while unconfigured', async () => {
    expect((await t.http().get('/api/auth/providers')).body).toEqual({ password: true, google: false });
    const start = await t.http().get('/api/auth/google/start');
    expect(start.status).toBe(503);
    expect(start.body).toEqual({ error: 'Google sign-in is not configured' });
    // Google's redirect back is a browser navigation: it lands on the Console's login page.
    const callback = await t.http().get('/api/auth/google/callback?code=x&state=y');
    expect([callback.status, callback.headers.location]).toEqual([302, '/login?error=google&reason=not_configured']);
    const pending = await t.http().get('/api/auth/google/pending');
    expect(pending.status).toBe(404);
    expect(pending.body).toEqual({ error: 'no pending Google sign-up' });
    const confirm = await t.http().post('/api/auth/google/confirm').send({ accept_terms: true });
    expect(confirm.status).toBe(404);
    expect(confirm.body).toEqual({ error: 'no pending Google sign-up' });
    const noTerms = await t.http().post('/api/auth/google/confirm').send({});
    expect(noTerms.status).toBe(400);
    expect(noTerms.body).toEqual({ error: 'accept_terms must be true' });
  });

  it('documents the routes, their bodies and rate limits in the OpenAPI document', async () => {
    const doc = await t.http().get('/api/openapi.json');
    const register = doc.body.paths['/api/auth/register'].post;
    expect(register.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RegisterDto' });
    expect(register['x-rate-limit']).toEqual({ group: 'auth', limit: 10, per: 'minute' });
    expect(doc.body.components.schemas.RegisterDto.required).toEqual(['email', 'password', 'name']);
    for (const path of [
      '/api/auth/login',
      '/api/auth/me',
      '/api/workspaces',
      '/api/workspace',
      '/api/members/{user_id}',
      '/api/invites/accept',
      '/api/contact',
    ]) {
      expect(doc.body.paths[path]).toBeDefined();
    }
  });

  it('forwards the website contact form to CONTACT_EMAIL with Reply-To the visitor', async () => {
    const res = await t.http().post('/api/contact').send({ name: 'Grace', email: 'grace@example.test', message: 'Do you support groups?' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const mail = await smtp.waitFor('sales@example.test');
    expect(mail.subject).toBe('Contact form: Grace');
    expect(mail.raw).toMatch(/^Reply-To: grace@example\.test\r$/m);
    expect(mail.text).toContain('Do you support groups?');
    const empty = await t.http().post('/api/contact').send({ name: 'Grace', email: 'grace@example.test', message: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'message is required' });
  });

  it('me and logout need a session', async () => {
    const me = await t.http().get('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ error: 'unauthorized' });
    const logout = await t.http().post('/api/auth/logout').send({});
    expect(logout.status).toBe(401);
  });
});

describe('session cookie behind https', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp({ env: { PUBLIC_URL: 'https://inbox.example.com' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is Secure when PUBLIC_URL is https, on sign-in and on logout', async () => {
    const user = await t.factories.user();
    const login = await t.http().post('/api/auth/login').send({ email: user.email, password: user.password });
    expect(sessionSetCookie(login)).toMatch(/^svc_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const logout = await t.http().post('/api/auth/logout').set('Cookie', sessionCookieOf(login)).send({});
    expect(sessionSetCookie(logout)).toContain('; Secure');
  });
});
