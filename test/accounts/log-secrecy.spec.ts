import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createAccountsApp, sessionCookieOf, type AccountsTestApp } from './accounts-support.js';
import { LogCapture } from '../support/log-capture.js';
import { linkInText, loggedMail } from './logged-mail.js';

// Its own file: the log capture must belong to the first app of the file (see LogCapture).
describe('without SMTP_URL, mails go to the log; passwords never do', () => {
  const capture = new LogCapture();
  let t: AccountsTestApp;

  beforeAll(async () => {
    // No SMTP_URL; every level, so nothing is missed because it was logged at debug.
    t = await createAccountsApp({ env: { LOG_LEVEL: 'trace' }, customize: capture.customize });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => t.resetRateLimits());

  it('logs the verification mail with its link, and that link verifies the account', async () => {
    const register = await t.http().post('/api/auth/register').send({ email: 'logged@example.test', password: 'logged password', name: 'Logged' });
    expect(register.status).toBe(201);

    const mail = await loggedMail(capture, 'logged@example.test', 'Confirm your email address');
    const link = linkInText(mail.text, '/verify-email');
    expect(link.origin).toBe('http://localhost:3000');

    const verify = await t
      .http()
      .post('/api/auth/verify-email')
      .send({ token: link.searchParams.get('token') });
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({ ok: true });
    const me = await t.http().get('/api/auth/me').set('Cookie', sessionCookieOf(register));
    expect(me.body.user).toEqual(expect.objectContaining({ email: 'logged@example.test', email_verified: true }));
  });

  it('never logs a password or its hash: register, sign-in, failed sign-in, forgot and reset', async () => {
    const email = 'secret-keeper@example.test';
    const first = 'first password: Tr0ub4dor&3';
    const wrong = 'wrong password: hunter2 hunter2';
    const second = 'second password: correct horse';

    expect((await t.http().post('/api/auth/register').send({ email, password: first, name: 'Keeper' })).status).toBe(201);
    const [{ password_hash: firstHash }]: { password_hash: string }[] = await t.dataSource.query(`SELECT password_hash FROM users WHERE email = $1`, [email]);
    expect((await t.http().post('/api/auth/login').send({ email, password: first })).status).toBe(200);
    expect((await t.http().post('/api/auth/login').send({ email, password: wrong })).status).toBe(401);
    // Too short: refused by validation, whose error names the field, not the value.
    expect((await t.http().post('/api/auth/register').send({ email: 'short@example.test', password: 'hunter2', name: 'S' })).status).toBe(400);

    expect((await t.http().post('/api/auth/forgot-password').send({ email })).body).toEqual({ ok: true });
    const token = linkInText((await loggedMail(capture, email, 'Reset your password')).text, '/reset-password').searchParams.get('token');
    expect((await t.http().post('/api/auth/reset-password').send({ token, password: second })).status).toBe(200);
    expect((await t.http().post('/api/auth/login').send({ email, password: second })).status).toBe(200);
    const [{ password_hash: secondHash }]: { password_hash: string }[] = await t.dataSource.query(`SELECT password_hash FROM users WHERE email = $1`, [email]);

    const log = capture.text();
    // The capture works: the requests above were logged.
    expect(log).toContain('"path":"/api/auth/register"');
    expect(log).toContain('"path":"/api/auth/reset-password"');
    expect(log).toContain('"statusCode":401');
    for (const secret of [first, wrong, second, 'hunter2', firstHash, secondHash, firstHash.split('$')[5]!, secondHash.split('$')[5]!]) {
      expect(log).not.toContain(secret);
    }
  });
});
