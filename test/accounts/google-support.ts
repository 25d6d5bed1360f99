import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { expect } from '@jest/globals';
import { Browser, type Landing } from '../support/browser.js';
import { TestOidcIssuer, type TestGoogleAccount } from '../support/oidc-issuer.js';
import { createAccountsApp, type AccountsTestApp } from './accounts-support.js';

/** The service's PUBLIC_URL in these tests (the browser maps it to the real port). */
export const PUBLIC_URL = 'http://localhost:3000';
export const START = `${PUBLIC_URL}/api/auth/google/start`;
export const CALLBACK = `${PUBLIC_URL}/api/auth/google/callback`;
export const PENDING = `${PUBLIC_URL}/api/auth/google/pending`;
export const CONFIRM = `${PUBLIC_URL}/api/auth/google/confirm`;
export const ME = `${PUBLIC_URL}/api/auth/me`;

export interface GoogleTestBed {
  t: AccountsTestApp;
  issuer: TestOidcIssuer;
  /** A new browser (empty cookie jar) with its own client IP. */
  browser: () => Browser;
  close: () => Promise<void>;
}

let ip = 0;
const freshIp = (): string => `198.51.100.${(++ip % 250) + 1}`;
const unique = (): string => randomBytes(4).toString('hex');

/**
 * The service (listening on a real port, Google configured) and a real OpenID Connect issuer on
 * loopback with the service registered as its client; `issuerDown` boots the service while the
 * issuer drops every connection, `wrongSecret` configures it with a secret the issuer does not know.
 */
export async function startGoogleTestBed(options: { issuerDown?: boolean; wrongSecret?: boolean } = {}): Promise<GoogleTestBed> {
  const client = { clientId: `inbox-${unique()}.apps.test`, clientSecret: randomBytes(16).toString('hex') };
  const issuer = await TestOidcIssuer.start({ ...client, redirectUri: CALLBACK });
  issuer.down = options.issuerDown ?? false;
  const t = await createAccountsApp({
    env: {
      GOOGLE_ISSUER: issuer.issuer,
      GOOGLE_CLIENT_ID: client.clientId,
      GOOGLE_CLIENT_SECRET: options.wrongSecret ? 'not-the-secret' : client.clientSecret,
      TRUST_PROXY: 'true',
      PUBLIC_URL,
    },
  });
  await t.app.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  return {
    t,
    issuer,
    browser: () => new Browser({ [PUBLIC_URL]: origin }, { 'x-forwarded-for': freshIp() }),
    close: async () => {
      await t.close();
      await issuer.close();
    },
  };
}

export function googleAccount(overrides: Partial<TestGoogleAccount> = {}): TestGoogleAccount {
  const id = unique();
  return { sub: `1${id}`, email: `person-${id}@gmail.test`, email_verified: true, name: `Person ${id}`, ...overrides };
}

/** Clicks "Continue with Google" as `account` and follows every redirect back to the Console. */
export async function continueWithGoogle(
  bed: GoogleTestBed,
  account: TestGoogleAccount,
  browser = bed.browser(),
): Promise<{ landing: Landing; browser: Browser }> {
  bed.issuer.account = account;
  return { landing: await browser.navigate(START, PUBLIC_URL), browser };
}

/**
 * Follows the flow only up to Google's redirect back, and answers the callback URL without
 * opening it (to tamper with it or replay it).
 */
export async function callbackUrlFor(bed: GoogleTestBed, account: TestGoogleAccount, browser: Browser): Promise<URL> {
  bed.issuer.account = account;
  let current = new URL(START);
  for (let hop = 0; hop < 20; hop++) {
    const res = await browser.request('GET', current);
    expect(res.status).toBeGreaterThanOrEqual(300);
    const next = new URL(res.headers.get('location')!, current);
    if (next.href.startsWith(CALLBACK)) return next;
    current = next;
  }
  throw new Error('the issuer never redirected back');
}

/** The Console's confirm page: same-origin POST, as a browser sends it. */
export function confirm(browser: Browser, body: unknown = { accept_terms: true }) {
  return browser.request('POST', CONFIRM, { json: body, headers: { 'sec-fetch-site': 'same-origin', origin: PUBLIC_URL } });
}

export function failure(reason: string): string {
  return `${PUBLIC_URL}/login?error=google&reason=${reason}`;
}
