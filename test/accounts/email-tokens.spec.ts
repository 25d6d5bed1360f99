import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type CapturedMail, linkIn, SmtpCapture } from '../support/smtp-capture.js';
import { createAccountsApp, HOUR, MINUTE, type AccountsTestApp } from './accounts-support.js';

const RESET = 'Reset your password';
const VERIFY = 'Confirm your email address';

describe('email tokens: existence never shows, only the newest link works, lifetimes', () => {
  let smtp: SmtpCapture;
  let t: AccountsTestApp;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    t = await createAccountsApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });
  beforeEach(() => t.resetRateLimits());

  const post = (path: string, body: object) => t.http().post(path).send(body);
  const tokenIn = async (email: string, subject: string, path: string): Promise<string> =>
    linkIn(await smtp.waitFor(email, (m) => m.subject === subject), path).searchParams.get('token')!;
  /** The tokens of the first `count` mails to `email` with `subject`, waiting for them to arrive. */
  const tokensIn = async (count: number, email: string, subject: string, path: string): Promise<string[]> => {
    const seen = new Set<CapturedMail>();
    while (seen.size < count) seen.add(await smtp.waitFor(email, (m) => m.subject === subject && !seen.has(m)));
    return [...seen].map((m) => linkIn(m, path).searchParams.get('token')!);
  };
  const unusedTokens = async (userId: string, purpose: string): Promise<number> =>
    ((await t.dataSource.query(`SELECT 1 FROM email_tokens WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [userId, purpose])) as unknown[]).length;

  it('forgot-password and resend-verification answer before any account work: same answer while that work is stuck', async () => {
    const known = await t.factories.user({ verified: false });
    // Holds every token write (the account work of both routes) until released; reads still pass.
    const lock = t.dataSource.createQueryRunner();
    await lock.connect();
    await lock.startTransaction();
    try {
      await lock.query(`LOCK TABLE email_tokens IN EXCLUSIVE MODE`);
      for (const email of [known.email, 'ghost@example.test']) {
        for (const path of ['/api/auth/forgot-password', '/api/auth/resend-verification']) {
          // The timeout only turns a request stuck behind the lock into a failure instead of a hang.
          const res = await post(path, { email }).timeout(10_000);
          expect(res.status).toBe(200);
          expect(res.body).toEqual({ ok: true });
        }
      }
      // Answered, and nothing was written yet: the answer did not wait for the account's tokens.
      expect(await unusedTokens(known.id, 'reset_password')).toBe(0);
    } finally {
      await lock.rollbackTransaction();
      await lock.release();
    }
    // The work then finishes: both mails arrive and their links work.
    const reset = await tokenIn(known.email, RESET, '/reset-password');
    const verify = await tokenIn(known.email, VERIFY, '/verify-email');
    expect((await post('/api/auth/verify-email', { token: verify })).body).toEqual({ ok: true });
    expect((await post('/api/auth/reset-password', { token: reset, password: 'a new password' })).body).toEqual({ ok: true });
    expect(smtp.to('ghost@example.test')).toEqual([]);
  });

  it('five resend-verification requests at once: five mails, exactly one working link', async () => {
    const user = await t.factories.user({ verified: false });
    const answers = await Promise.all(Array.from({ length: 5 }, () => post('/api/auth/resend-verification', { email: user.email })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    const tokens = await tokensIn(5, user.email, VERIFY, '/verify-email');

    const results = [];
    for (const token of tokens) results.push((await post('/api/auth/verify-email', { token })).status);
    expect(results.filter((status) => status === 200)).toHaveLength(1);
    expect(results.filter((status) => status === 400)).toHaveLength(4);
  });

  it('five forgot-password requests at once leave exactly one usable reset link', async () => {
    const user = await t.factories.user();
    await Promise.all(Array.from({ length: 5 }, () => post('/api/auth/forgot-password', { email: user.email })));
    await tokensIn(5, user.email, RESET, '/reset-password');
    expect(await unusedTokens(user.id, 'reset_password')).toBe(1);
  });

  it('a reset link works at 59 minutes and is refused at 61', async () => {
    const user = await t.factories.user();
    await post('/api/auth/forgot-password', { email: user.email });
    const early = await tokenIn(user.email, RESET, '/reset-password');
    t.clock.advance(59 * MINUTE);
    expect((await post('/api/auth/reset-password', { token: early, password: 'fifty-nine minutes' })).body).toEqual({ ok: true });

    smtp.clear();
    await post('/api/auth/forgot-password', { email: user.email });
    const late = await tokenIn(user.email, RESET, '/reset-password');
    t.clock.advance(61 * MINUTE);
    const refused = await post('/api/auth/reset-password', { token: late, password: 'sixty-one minutes' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid or expired token' });
    expect((await post('/api/auth/login', { email: user.email, password: 'fifty-nine minutes' })).status).toBe(200);
  });

  it('a verification link works at 47 h 59 min and is refused at 48 h 1 min', async () => {
    const early = await t.factories.user({ verified: false });
    const late = await t.factories.user({ verified: false });
    await post('/api/auth/resend-verification', { email: early.email });
    await post('/api/auth/resend-verification', { email: late.email });
    const earlyToken = await tokenIn(early.email, VERIFY, '/verify-email');
    const lateToken = await tokenIn(late.email, VERIFY, '/verify-email');

    t.clock.advance(48 * HOUR - MINUTE);
    expect((await post('/api/auth/verify-email', { token: earlyToken })).body).toEqual({ ok: true });
    t.clock.advance(2 * MINUTE);
    const refused = await post('/api/auth/verify-email', { token: lateToken });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid or expired token' });
  });
});
