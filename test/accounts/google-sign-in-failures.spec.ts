import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { MINUTE } from './accounts-support.js';
import {
  CALLBACK,
  ME,
  PENDING,
  PUBLIC_URL,
  START,
  callbackUrlFor,
  confirm,
  continueWithGoogle,
  failure,
  googleAccount,
  startGoogleTestBed,
  type GoogleTestBed,
} from './google-support.js';

const TOO_MANY = 'too many attempts, please wait a minute and try again';

describe('Sign in with Google: failures end on the Console login page with a reason', () => {
  let bed: GoogleTestBed;
  beforeAll(async () => {
    bed = await startGoogleTestBed();
  });
  afterAll(async () => {
    await bed?.close();
  });
  beforeEach(() => {
    bed.t.resetRateLimits();
    Object.assign(bed.issuer, { deny: false, down: false, tamperIdToken: false, rewriteIdToken: undefined });
  });

  const counts = async (account: { sub: string; email: string }) => {
    const [row] = await bed.t.dataSource.query(
      `SELECT (SELECT count(*) FROM users WHERE email = $1 OR google_sub = $2)::int AS users,
              (SELECT count(*) FROM google_pending_signups WHERE google_sub = $2)::int AS pending`,
      [account.email, account.sub],
    );
    return row as { users: number; pending: number };
  };

  it('denied consent: reason=access_denied, nothing stored', async () => {
    const account = googleAccount();
    bed.issuer.deny = true;
    const { landing, browser } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(failure('access_denied'));
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
    expect(browser.cookie(CALLBACK, 'svc_google_flow')).toBeUndefined();
  });

  it('a tampered state: reason=state_mismatch, the code is never redeemed', async () => {
    const account = googleAccount();
    const browser = bed.browser();
    const callback = await callbackUrlFor(bed, account, browser);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')!.slice(0, -2)}xx`);
    const res = await browser.request('GET', tampered);
    expect([res.status, res.headers.get('location')]).toEqual([302, '/login?error=google&reason=state_mismatch']);
    expect(res.headers.getSetCookie().some((line) => line.startsWith('svc_session='))).toBe(false);
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
    // The attempt is over for this browser: the genuine callback does not work afterwards either.
    const genuine = await browser.request('GET', callback);
    expect(genuine.headers.get('location')).toBe('/login?error=google&reason=flow_expired');
  });

  it('a replayed code: the browser cannot reuse its callback (flow_expired), and a replay with the old cookie is refused by the issuer (code_rejected)', async () => {
    const account = googleAccount();
    const browser = bed.browser();
    const callback = await callbackUrlFor(bed, account, browser);
    const flowCookie = browser.cookie(CALLBACK, 'svc_google_flow')!;
    const first = await browser.request('GET', callback);
    expect(first.headers.get('location')).toBe('/signup/google');

    const replay = await browser.request('GET', callback);
    expect(replay.headers.get('location')).toBe('/login?error=google&reason=flow_expired');

    // Whoever kept the cookie too (a copied request, a double submission) gets past our checks;
    // the issuer refuses a code it already exchanged.
    const thief = bed.browser();
    thief.setCookie(CALLBACK, 'svc_google_flow', flowCookie, '/api/auth/google/callback');
    const stolen = await thief.request('GET', callback);
    expect(stolen.headers.get('location')).toBe('/login?error=google&reason=code_rejected');
    expect(stolen.headers.getSetCookie().some((line) => /^svc_(session|google_pending)=[^;]/.test(line))).toBe(false);
    expect(await counts(account)).toEqual({ users: 0, pending: 1 });
  });

  it('an ID token altered after signing: reason=invalid_token (its signature no longer verifies)', async () => {
    const account = googleAccount();
    bed.issuer.tamperIdToken = true;
    const { landing } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(failure('invalid_token'));
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
    const [intruder] = await bed.t.dataSource.query(`SELECT count(*)::int AS n FROM google_pending_signups WHERE email = 'intruder@gmail.test'`);
    expect(intruder.n).toBe(0);
  });

  const now = (): number => Math.floor(Date.now() / 1000);
  it.each([
    ['expired', (claims: Record<string, unknown>) => ({ ...claims, iat: now() - 3600, exp: now() - 1800 })],
    ['for another client (audience)', (claims: Record<string, unknown>) => ({ ...claims, aud: 'another-client.apps.test' })],
    ['from another issuer', (claims: Record<string, unknown>) => ({ ...claims, iss: 'https://accounts.example.test' })],
  ])('a validly signed ID token %s: reason=invalid_token', async (_what, rewrite) => {
    const account = googleAccount();
    bed.issuer.rewriteIdToken = rewrite;
    const { landing } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(failure('invalid_token'));
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
  });

  it('an ID token without an email (the email scope not granted): reason=email_missing', async () => {
    const account = googleAccount();
    bed.issuer.rewriteIdToken = ({ email: _email, ...claims }) => claims;
    expect((await continueWithGoogle(bed, account)).landing.url.href).toBe(failure('email_missing'));
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
  });

  it('the same re-signing with the claims untouched passes (so the cases above fail for their claim alone)', async () => {
    bed.issuer.rewriteIdToken = (claims) => claims;
    expect((await continueWithGoogle(bed, googleAccount())).landing.url.href).toBe(`${PUBLIC_URL}/signup/google`);
  });

  it('an ID token for another nonce (the authorization request was altered on its way): reason=invalid_token', async () => {
    const account = googleAccount();
    bed.issuer.account = account;
    const browser = bed.browser();
    const start = await browser.request('GET', START);
    const authorize = new URL(start.headers.get('location')!);
    authorize.searchParams.set('nonce', 'a-nonce-of-the-attackers-choosing');
    // The issuer signs a perfectly valid token, just not for the nonce this browser's attempt holds.
    const landing = await browser.navigate(authorize, PUBLIC_URL);
    expect(landing.url.href).toBe(failure('invalid_token'));
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
  });

  it('a callback without this browser’s attempt, or after 10 minutes: reason=flow_expired', async () => {
    const stray = await bed.browser().request('GET', `${CALLBACK}?code=abc&state=def`);
    expect([stray.status, stray.headers.get('location')]).toEqual([302, '/login?error=google&reason=flow_expired']);

    const account = googleAccount();
    const browser = bed.browser();
    const callback = await callbackUrlFor(bed, account, browser);
    bed.t.clock.advance(10 * MINUTE);
    const late = await browser.request('GET', callback);
    expect(late.headers.get('location')).toBe('/login?error=google&reason=flow_expired');
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
  });

  it('an error from the issuer other than a refusal: reason=provider_error', async () => {
    const browser = bed.browser();
    await callbackUrlFor(bed, googleAccount(), browser);
    const res = await browser.request('GET', `${CALLBACK}?error=server_error&state=x`);
    expect(res.headers.get('location')).toBe('/login?error=google&reason=provider_error');
  });

  it('the issuer unreachable when the code is redeemed: reason=unavailable', async () => {
    const account = googleAccount();
    const browser = bed.browser();
    const callback = await callbackUrlFor(bed, account, browser);
    bed.issuer.down = true;
    const res = await browser.request('GET', callback);
    expect(res.headers.get('location')).toBe('/login?error=google&reason=unavailable');
    expect(await counts(account)).toEqual({ users: 0, pending: 0 });
  });

  // The contract's rate limits: docs/contract.md#limits, docs/api.md#limits.
  describe('rate limits (contract section 8)', () => {
    const expectLimited = (res: { status: number; json: unknown; headers: Headers }): void => {
      expect([res.status, res.json, res.headers.get('retry-after')]).toEqual([429, { error: TOO_MANY }, '60']);
    };

    it('start and pending share 20 per minute per IP', async () => {
      const browser = bed.browser();
      for (let i = 0; i < 20; i++) {
        const res = await browser.request('GET', i % 2 ? PENDING : START);
        expect(res.status).toBe(i % 2 ? 404 : 302);
      }
      expectLimited(await browser.request('GET', START));
      expectLimited(await browser.request('GET', PENDING));
      // The callback has no limit: Google's redirect back always gets through.
      expect((await browser.request('GET', `${CALLBACK}?code=a&state=b`)).status).toBe(302);
      expect((await bed.browser().request('GET', START)).status).toBe(302);
    });

    it('confirm shares 10 per minute per IP with register, login, reset-password and verify-email', async () => {
      const account = googleAccount();
      const { browser } = await continueWithGoogle(bed, account);
      for (let i = 0; i < 5; i++) {
        expect(
          (await browser.request('POST', `${PUBLIC_URL}/api/auth/login`, { json: { email: 'nobody@example.test', password: 'wrong password' } })).status,
        ).toBe(401);
        expect((await confirm(browser, { accept_terms: false })).status).toBe(400);
      }
      expectLimited(await confirm(browser));
      expectLimited(await browser.request('POST', `${PUBLIC_URL}/api/auth/login`, { json: { email: 'nobody@example.test', password: 'x' } }));
      expect(await counts(account)).toEqual({ users: 0, pending: 1 });
      bed.t.clock.advance(MINUTE);
      expect((await confirm(browser)).status).toBe(201);
      expect((await browser.request('GET', ME)).status).toBe(200);
    });
  });
});

describe('Sign in with Google while the issuer is unreachable', () => {
  let bed: GoogleTestBed;
  beforeAll(async () => {
    bed = await startGoogleTestBed({ issuerDown: true });
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('boots without contacting the issuer, answers 503 on start, and recovers once it is back (retried after a backoff)', async () => {
    expect(bed.issuer.discoveries).toBe(0);
    const browser = bed.browser();
    expect((await browser.request('GET', `${PUBLIC_URL}/api/auth/providers`)).json).toEqual({ password: true, google: true });

    const down = await browser.request('GET', START);
    expect([down.status, down.json]).toEqual([
      503,
      { error: 'Google sign-in is temporarily unavailable: Google could not be reached, please try again in a minute' },
    ]);
    expect(down.headers.getSetCookie()).toEqual([]);
    expect(bed.issuer.discoveries).toBe(1);

    // Back up, but the next attempt waits for the backoff: clicks meanwhile do not hammer the issuer.
    bed.issuer.down = false;
    expect((await browser.request('GET', START)).status).toBe(503);
    expect(bed.issuer.discoveries).toBe(1);
    bed.t.clock.advance(5_000);
    const up = await browser.request('GET', START);
    expect(up.status).toBe(302);
    expect(up.headers.get('location')!.startsWith(`${bed.issuer.issuer}/auth?`)).toBe(true);

    // Discovered once, then cached.
    expect((await browser.request('GET', START)).status).toBe(302);
    expect(bed.issuer.discoveries).toBe(2);
  });
});

describe('Sign in with Google with a client secret the issuer does not accept', () => {
  let bed: GoogleTestBed;
  beforeAll(async () => {
    bed = await startGoogleTestBed({ wrongSecret: true });
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('ends on the login page with reason=provider_error, nothing stored', async () => {
    const account = googleAccount();
    const { landing } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(failure('provider_error'));
    const [row] = await bed.t.dataSource.query(`SELECT count(*)::int AS n FROM google_pending_signups`);
    expect(row.n).toBe(0);
  });
});
