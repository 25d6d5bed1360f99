import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { MINUTE } from './accounts-support.js';
import { ME, PENDING, PUBLIC_URL, START, confirm, continueWithGoogle, googleAccount, startGoogleTestBed, type GoogleTestBed } from './google-support.js';

const SIGNUP_PAGE = `${PUBLIC_URL}/signup/google`;
const HOME = `${PUBLIC_URL}/`;

describe('Sign in with Google (against a real OpenID Connect provider on loopback)', () => {
  let bed: GoogleTestBed;
  beforeAll(async () => {
    bed = await startGoogleTestBed();
  });
  afterAll(async () => {
    await bed?.close();
  });
  beforeEach(() => bed.t.resetRateLimits());

  const userRow = async (email: string) => {
    const rows: { id: string; google_sub: string | null; password_hash: string | null; email_verified_at: Date | null }[] = await bed.t.dataSource.query(
      `SELECT id, google_sub, password_hash, email_verified_at FROM users WHERE email = $1`,
      [email],
    );
    return rows[0];
  };
  const pendingRows = async (sub: string): Promise<number> =>
    Number((await bed.t.dataSource.query(`SELECT count(*) AS n FROM google_pending_signups WHERE google_sub = $1`, [sub]))[0].n);

  it('providers says Google is offered once it is configured', async () => {
    const res = await bed.browser().request('GET', `${PUBLIC_URL}/api/auth/providers`);
    expect(res.json).toEqual({ password: true, google: true });
  });

  it("start sends the browser to the issuer's authorization endpoint with state, nonce and an S256 PKCE challenge", async () => {
    const browser = bed.browser();
    const res = await browser.request('GET', START);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(`${bed.issuer.issuer}/auth`);
    const params = Object.fromEntries(to.searchParams);
    expect(params).toMatchObject({
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${PUBLIC_URL}/api/auth/google/callback`,
      code_challenge_method: 'S256',
    });
    for (const name of ['state', 'nonce', 'code_challenge', 'client_id']) expect(params[name]).toMatch(/^[\w.-]{20,}$/);
    const flowCookie = res.headers.getSetCookie().find((line) => line.startsWith('svc_google_flow='))!;
    expect(flowCookie).toMatch(/; Max-Age=600; Path=\/api\/auth\/google\/callback; HttpOnly; SameSite=Lax$/);
    // Sealed: neither the state nor the verifier can be read from the cookie.
    expect(flowCookie).not.toContain(params.state);
  });

  it('signs a new person up: pending sign-up, confirm page, account created with the verified Google email, signed in', async () => {
    const account = googleAccount({ name: 'Ada Lovelace' });
    const { landing, browser } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(SIGNUP_PAGE);
    expect(browser.cookie(ME, 'svc_session')).toBeUndefined();

    const pending = await browser.request('GET', PENDING);
    expect([pending.status, pending.json]).toEqual([200, { email: account.email, name: 'Ada Lovelace' }]);

    const done = await confirm(browser);
    expect(done.status).toBe(201);
    expect(done.json).toEqual({
      user: { id: expect.any(String), email: account.email, name: 'Ada Lovelace', email_verified: true, created_at: expect.any(String) },
    });
    const sessionLine = done.headers.getSetCookie().find((line) => line.startsWith('svc_session='))!;
    expect(sessionLine).toMatch(/HttpOnly/);
    expect(sessionLine).toMatch(/SameSite=Lax/);

    const me = await browser.request('GET', ME);
    expect(me.status).toBe(200);
    expect((me.json as { user: { id: string } }).user.id).toBe((done.json as { user: { id: string } }).user.id);
    expect(await userRow(account.email)).toMatchObject({ google_sub: account.sub, password_hash: null, email_verified_at: expect.any(Date) });

    // The pending sign-up is used up: the page has nothing to show, a second confirm nothing to do.
    expect(await pendingRows(account.sub)).toBe(0);
    expect((await browser.request('GET', PENDING)).status).toBe(404);
    const again = await confirm(browser);
    expect([again.status, again.json]).toEqual([404, { error: 'no pending Google sign-up' }]);
  });

  it('signs a returning person straight in, to the Console home, with no pending sign-up', async () => {
    const account = googleAccount();
    const first = await continueWithGoogle(bed, account);
    const created = (await confirm(first.browser)).json as { user: { id: string } };

    const { landing, browser } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(HOME);
    const me = await browser.request('GET', ME);
    expect(me.status).toBe(200);
    expect((me.json as { user: { id: string } }).user.id).toBe(created.user.id);
    expect(await pendingRows(account.sub)).toBe(0);
    expect((await browser.request('GET', PENDING)).status).toBe(404);
  });

  it('links an existing account whose email is verified on both sides, after confirmation; the password keeps working', async () => {
    const existing = await bed.t.factories.user({ email: `linked-${Date.now()}@gmail.test`, verified: true });
    const account = googleAccount({ email: existing.email.toUpperCase(), email_verified: true });
    const { landing, browser } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(SIGNUP_PAGE);
    expect((await browser.request('GET', PENDING)).json).toEqual({ email: existing.email, name: account.name });

    const done = await confirm(browser);
    expect(done.status).toBe(201);
    expect((done.json as { user: { id: string; name: string } }).user).toMatchObject({ id: existing.id, name: existing.name, email_verified: true });
    expect(await userRow(existing.email)).toMatchObject({ id: existing.id, google_sub: account.sub, password_hash: expect.any(String) });

    const login = await bed.browser().request('POST', `${PUBLIC_URL}/api/auth/login`, { json: { email: existing.email, password: existing.password } });
    expect(login.status).toBe(200);
    // From now on Google signs straight in to that account.
    expect((await continueWithGoogle(bed, account)).landing.url.href).toBe(HOME);
  });

  it('never links an existing account to a Google account whose email Google has not verified (409, nothing changes)', async () => {
    const existing = await bed.t.factories.user({ verified: true });
    const account = googleAccount({ email: existing.email, email_verified: false });
    const { landing, browser } = await continueWithGoogle(bed, account);
    expect(landing.url.href).toBe(SIGNUP_PAGE);

    const refused = await confirm(browser);
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      error: 'an account with this email already exists and Google has not verified this address, so it cannot be linked: sign in with your password instead',
    });
    expect(refused.headers.getSetCookie().some((line) => line.startsWith('svc_session='))).toBe(false);
    expect(await userRow(existing.email)).toMatchObject({ id: existing.id, google_sub: null });
    expect((await browser.request('GET', ME)).status).toBe(401);
    // Signing in with Google again still does not get in.
    expect((await continueWithGoogle(bed, account)).landing.url.href).toBe(SIGNUP_PAGE);
  });

  it('never links a Google account to a local account whose own address is unverified (it may not be its owner)', async () => {
    const squatter = await bed.t.factories.user({ verified: false });
    const account = googleAccount({ email: squatter.email, email_verified: true });
    const { browser } = await continueWithGoogle(bed, account);
    const refused = await confirm(browser);
    expect(refused.status).toBe(409);
    expect((refused.json as { error: string }).error).toContain('its address is not verified');
    expect(await userRow(squatter.email)).toMatchObject({ google_sub: null, email_verified_at: null });

    // Once the owner proves the address here, the same pending sign-up links.
    await bed.t.dataSource.query(`UPDATE users SET email_verified_at = now() WHERE id = $1`, [squatter.id]);
    expect((await confirm(browser)).status).toBe(201);
    expect(await userRow(squatter.email)).toMatchObject({ google_sub: account.sub });
  });

  it('creates an account with an unverified email when Google has not verified it and nobody has the address', async () => {
    const account = googleAccount({ email_verified: false });
    const { browser } = await continueWithGoogle(bed, account);
    const done = await confirm(browser);
    expect(done.status).toBe(201);
    expect((done.json as { user: { email_verified: boolean } }).user.email_verified).toBe(false);
    expect(await userRow(account.email)).toMatchObject({ google_sub: account.sub, email_verified_at: null });

    // Once Google vouches for the address, a sign-in marks it verified here too.
    const { landing, browser: later } = await continueWithGoogle(bed, { ...account, email_verified: true });
    expect(landing.url.href).toBe(HOME);
    expect(((await later.request('GET', ME)).json as { user: { email_verified: boolean } }).user.email_verified).toBe(true);
  });

  it('expires a pending sign-up after 15 minutes: the page and confirm answer 404, no account is created', async () => {
    const account = googleAccount();
    const { browser } = await continueWithGoogle(bed, account);
    bed.t.clock.advance(15 * MINUTE - 1_000);
    expect((await browser.request('GET', PENDING)).status).toBe(200);
    bed.t.clock.advance(1_000);

    const shown = await browser.request('GET', PENDING);
    expect([shown.status, shown.json]).toEqual([404, { error: 'the Google sign-up expired: continue with Google again' }]);
    const refused = await confirm(browser);
    expect([refused.status, refused.json]).toEqual([404, { error: 'the Google sign-up expired: continue with Google again' }]);
    expect(await userRow(account.email)).toBeUndefined();
  });

  it('documents the redirects, their targets and the failure reasons in the OpenAPI document', async () => {
    const doc = (await bed.browser().request('GET', `${PUBLIC_URL}/api/openapi.json`)).json as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string; headers?: object }> }>>;
    };
    const callback = doc.paths['/api/auth/google/callback']!.get!.responses['302']!;
    for (const text of ['`/`', '`/signup/google`', '/login?error=google&reason=<code>', '`state_mismatch`', '`code_rejected`', '`invalid_token`']) {
      expect(callback.description).toContain(text);
    }
    expect(callback.headers).toHaveProperty('Location');
    expect(Object.keys(doc.paths['/api/auth/google/start']!.get!.responses)).toEqual(expect.arrayContaining(['302', '429', '503']));
    expect(Object.keys(doc.paths['/api/auth/google/confirm']!.post!.responses)).toEqual(expect.arrayContaining(['201', '400', '403', '404', '409', '429']));
  });

  it('confirm needs accept_terms: true and the pending cookie', async () => {
    const account = googleAccount();
    const { browser } = await continueWithGoogle(bed, account);
    const noTerms = await confirm(browser, { accept_terms: false });
    expect([noTerms.status, noTerms.json]).toEqual([400, { error: 'accept_terms must be true' }]);
    const otherBrowser = await confirm(bed.browser());
    expect([otherBrowser.status, otherBrowser.json]).toEqual([404, { error: 'no pending Google sign-up' }]);
    expect(await userRow(account.email)).toBeUndefined();
  });
});
