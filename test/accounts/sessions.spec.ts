import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { sha256Hex } from '../../src/infra/crypto/hashing.js';
import { PasswordHasher } from '../../src/modules/auth/accounts/password-hasher.js';
import { createAccountsApp, DAY, sessionCookieOf, sessionSetCookie, type AccountsTestApp } from './accounts-support.js';

// The cost parameters every stored hash has (hashing.ts): a dummy hash with cheaper ones would
// make an unknown email measurably faster than a wrong password.
const SCRYPT_HASH = /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/;

describe('sessions and sign-in', () => {
  let t: AccountsTestApp;

  beforeAll(async () => {
    t = await createAccountsApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => t.resetRateLimits());

  const login = (email: string, password: string) => t.http().post('/api/auth/login').send({ email, password });

  // First in the file on purpose: it checks that the very first unknown-email login of the
  // process finds the dummy hash already computed (at boot), not computed on demand.
  it('runs exactly one scrypt verification per failed login: unknown email, wrong password, Google-only account', async () => {
    const hasher = t.app.get(PasswordHasher);
    const verify = jest.spyOn(hasher, 'verify');
    const hash = jest.spyOn(hasher, 'hash');
    try {
      const user = await t.factories.user();
      const googleOnly = await t.factories.user();
      await t.dataSource.query(`UPDATE users SET password_hash = NULL WHERE id = $1`, [googleOnly.id]);

      for (const [email, password] of [
        ['nobody@example.test', 'some password'],
        [user.email, 'not the password'],
        [googleOnly.email, 'any password at all'],
      ] as const) {
        verify.mockClear();
        const res = await login(email, password);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: 'invalid email or password' });
        expect(sessionSetCookie(res)).toBeUndefined();
        // The same work whatever the reason: one verification against a real-cost scrypt hash.
        expect(verify).toHaveBeenCalledTimes(1);
        expect(verify.mock.calls[0]![1]).toMatch(SCRYPT_HASH);
        expect(await verify.mock.results[0]!.value).toBe(false);
      }
      // Nothing was hashed on the way: the dummy hash was ready before the first request.
      expect(hash).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
      hash.mockRestore();
    }
  });

  it('stores only the SHA-256 of the cookie token', async () => {
    const user = await t.factories.user();
    const res = await login(user.email, user.password);
    expect(res.status).toBe(200);
    const token = sessionCookieOf(res).split('=')[1]!;
    const rows: { token_hash: string }[] = await t.dataSource.query(`SELECT token_hash FROM sessions WHERE user_id = $1`, [user.id]);
    expect(rows).toEqual([{ token_hash: sha256Hex(token) }]);
    expect(JSON.stringify(await t.dataSource.query(`SELECT * FROM sessions WHERE user_id = $1`, [user.id]))).not.toContain(token);
  });

  it('lasts 7 days by the clock: the cookie says so, just under 7 days works, 7 days and 1 s is 401', async () => {
    const user = await t.factories.user();
    const res = await login(user.email, user.password);
    expect(sessionSetCookie(res)).toContain('; Max-Age=604800;');
    const cookie = sessionCookieOf(res);
    const me = () => t.http().get('/api/auth/me').set('Cookie', cookie);

    t.clock.advance(7 * DAY - 1000);
    expect((await me()).status).toBe(200);
    t.clock.advance(2000);
    const expired = await me();
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: 'unauthorized' });
    // A new sign-in starts a new 7 days.
    expect(
      (
        await t
          .http()
          .get('/api/auth/me')
          .set('Cookie', sessionCookieOf(await login(user.email, user.password)))
      ).status,
    ).toBe(200);
  });
});
