import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FakeGraphApi } from '../fakes/graph-api/index.js';
import type { TestUser } from '../support/factories.js';
import { TestOidcIssuer, type TestGoogleAccount } from '../support/oidc-issuer.js';
import { collectPageErrors, freePort, launchChromium, screenshot, signedInContext, startConsoleStack, type ConsoleStack } from './browser-support.js';

/**
 * The Console with the outside providers, each a real protocol peer on loopback: the Cloud API
 * page against the fake Graph API (the manual form, Embedded Signup with stand-ins for Meta's SDK
 * and popup), and Sign in with Google against a real OpenID Connect issuer. One browser; one page
 * for the owner, a fresh browser context for each person signing in with Google.
 */
jest.setTimeout(30_000);

const APP_ID = '1234567890';
const APP_SECRET = 'console-meta-app-secret';
const CONFIG_ID = '555000111';
const PHONE_NUMBER_ID = '106540352242922';
const WABA_ID = '102290129340398';
const TOKEN = 'EAAG-console-token';

describe('the Console in a browser: the Cloud API and Google sign-in', () => {
  let stack: ConsoleStack;
  let graph: FakeGraphApi;
  let issuer: TestOidcIssuer;
  let browser: Browser;
  let owner: TestUser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const google = { clientId: 'console.apps.test', clientSecret: 'console-google-secret' };
    [graph, issuer, browser] = await Promise.all([
      FakeGraphApi.start({ appId: APP_ID, appSecret: APP_SECRET }),
      TestOidcIssuer.start({ ...google, redirectUri: `${base}/api/auth/google/callback` }),
      launchChromium(),
    ]);
    // The platform's Meta app is configured: Embedded Signup is offered (Meta's SDK and popup are
    // stand-ins served by the browser), and both it and the manual form talk to the fake Graph API.
    stack = await startConsoleStack(
      {
        META_GRAPH_URL: graph.url,
        META_APP_ID: APP_ID,
        META_APP_SECRET: APP_SECRET,
        META_CONFIG_ID: CONFIG_ID,
        GOOGLE_ISSUER: issuer.issuer,
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_CLIENT_SECRET: google.clientSecret,
      },
      port,
    );
    const { t } = stack;
    owner = await t.factories.user({ name: 'Olivia Owner', email: 'olivia@providers.test' });
    const ws = await t.factories.workspace({ name: 'Cloud shop' });
    await t.factories.member(ws.id, owner.id, 'owner');
    graph.world.addNumber({ id: PHONE_NUMBER_ID, wabaId: WABA_ID, displayPhoneNumber: '+1 555-078-3881', verifiedName: 'Cloud Shop Ltd' }, TOKEN);
    graph.world.addTemplate(WABA_ID, { name: 'order_update', language: 'en_US', components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} has shipped.' }] });
    context = await signedInContext(browser, stack, owner.id);
    page = await context.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await graph?.close();
    await issuer?.close();
  });

  it('connects a Cloud API number by hand, checked with the provider (a refused token readably)', async () => {
    await page.goto(`${stack.base}/settings/cloud`);
    await page.getByRole('button', { name: 'Connect with Meta' }).waitFor();
    await page.getByLabel('Phone number id').fill(PHONE_NUMBER_ID);
    await page.getByLabel('WhatsApp Business Account id').fill(WABA_ID);
    await page.getByLabel('Access token').fill('EAAG-not-a-real-token');
    await page.getByRole('button', { name: 'Check and save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Provider rejected the settings' }).waitFor();

    await page.getByLabel('Access token').fill(TOKEN);
    await page.getByRole('button', { name: 'Check and save' }).click();
    await page.getByText('The Cloud API number is saved.').waitFor();
    const number = page.locator('.card', { hasText: 'Phone number id' }).first();
    await number.getByText('+1 555-078-3881').waitFor();
    await number.getByText('connected', { exact: true }).waitFor();
    expect(await page.content()).not.toContain(TOKEN);
    await screenshot(page, '23-settings-cloud');

    // The overview names it, and the templates page now syncs the provider's templates.
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await page.getByText('Cloud API: +1 555-078-3881').waitFor();
    await page.getByRole('link', { name: 'Templates', exact: true }).click();
    const [sync] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/templates/sync')),
      page.getByRole('button', { name: 'Sync from WhatsApp' }).click(),
    ]);
    expect(sync.status()).toBe(200);
    await page.getByText('1 template synced from WhatsApp.').waitFor();
    await page.locator('.card', { hasText: 'order_update' }).getByText('APPROVED').waitFor();
  });

  it('removes the Cloud API number after a confirmation', async () => {
    await page.goto(`${stack.base}/settings/cloud`);
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: 'Remove the Cloud API number?' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('heading', { name: 'Enter the details' }).waitFor();
    await expect(page.getByText('+1 555-078-3881').count()).resolves.toBe(0);
  });

  it("connects a number with Meta's guided signup: the popup's ids and code go to the service, which sets the number up", async () => {
    graph.world.addSignupCode('AQ-signup-code', 'EAAB-business-token', {
      id: '106540352240001',
      wabaId: '102290129340001',
      displayPhoneNumber: '+1 555-010-2030',
      verifiedName: 'Signed Up Ltd',
    });
    await fakeMetaSdk(page, { code: 'AQ-signup-code', phoneNumberId: '106540352240001', wabaId: '102290129340001' });
    await page.goto(`${stack.base}/settings/cloud`);
    await page.getByRole('button', { name: 'Connect with Meta' }).click();
    await page.getByText('The Cloud API number is saved.').waitFor();
    await page.locator('[data-cloud-number]').getByText('+1 555-010-2030').waitFor();
    await page.locator('[data-cloud-number]').getByText('Signed Up Ltd').waitFor();
    // The SDK was opened as the service said, and the service registered the number with Meta.
    const calls = await page.evaluate<{ init: Record<string, unknown>; login: Record<string, unknown> }>('window.fakeSdkCalls');
    expect(calls.init).toMatchObject({ appId: APP_ID, version: 'v23.0' });
    expect(calls.login).toMatchObject({ config_id: CONFIG_ID, response_type: 'code', override_default_response_type: true, extras: { version: 'v4' } });
    expect(graph.received({ method: 'POST', path: '/106540352240001/register' })).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('signs up with Google: the button, the issuer, the confirm page; the next time straight in', async () => {
    const visitor = await browser.newContext();
    visitor.setDefaultTimeout(15_000);
    const guest = await visitor.newPage();
    const guestErrors = collectPageErrors(guest);
    issuer.account = { sub: '1090001', email: 'grace@gmail.test', email_verified: true, name: 'Grace Hopper' };
    await guest.goto(`${stack.base}/signup`);
    await guest.getByRole('link', { name: 'Continue with Google' }).click();
    await guest.waitForURL(`${stack.base}/signup/google`);
    await guest.getByText('grace@gmail.test').waitFor();
    await guest.getByText('Grace Hopper').waitFor();
    await screenshot(guest, '24-signup-google');
    await guest.getByLabel(/I accept the terms/).check();
    await guest.getByRole('button', { name: 'Create my account' }).click();
    await guest.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await guest.getByLabel('Workspace name').fill('Grace co');
    await guest.getByRole('button', { name: 'Create workspace' }).click();
    await guest.getByRole('heading', { name: 'Overview · Grace co' }).waitFor();

    await guest.getByRole('button', { name: 'Sign out' }).click();
    await guest.waitForURL(/\/login$/);
    await guest.getByRole('link', { name: 'Continue with Google' }).click();
    await guest.getByRole('heading', { name: 'Overview · Grace co' }).waitFor();
    expect(guestErrors).toEqual([]);
    await visitor.close();
  });

  it('links Google to an existing account only when its address is verified, and says what to do otherwise', async () => {
    // Each person in a browser of their own (the issuer remembers who signed in there).
    const newcomer = async (account: TestGoogleAccount): Promise<Page> => {
      issuer.account = account;
      const guest = await (await browser.newContext()).newPage();
      guest.setDefaultTimeout(15_000);
      await guest.goto(`${stack.base}/login`);
      await guest.getByRole('link', { name: 'Continue with Google' }).click();
      await guest.waitForURL(`${stack.base}/signup/google`);
      await guest.getByText(account.email).waitFor();
      await guest.getByLabel(/I accept the terms/).check();
      await guest.getByRole('button', { name: 'Create my account' }).click();
      return guest;
    };
    await stack.t.factories.user({ name: 'Pat Unverified', email: 'pat@content.test', verified: false });
    const pat = await newcomer({ sub: '1090002', email: 'pat@content.test', email_verified: true, name: 'Pat' });
    await pat
      .getByRole('alert')
      .filter({ hasText: 'An account with this email already exists but its address is not verified: sign in with your password' })
      .waitFor();
    await pat.context().close();

    // The owner's verified account gets Google added, and opens its workspace.
    const olivia = await newcomer({ sub: '1090003', email: owner.email, email_verified: true, name: 'Olivia at Google' });
    await olivia.getByRole('heading', { name: 'Overview · Cloud shop' }).waitFor();
    await olivia.context().close();
  });
});

/**
 * Meta's JavaScript SDK and its signup popup, as the browser loads them (requests to Meta never
 * leave the machine): FB.login opens a frame on https://www.facebook.com that reports the chosen
 * ids as a WA_EMBEDDED_SIGNUP message, then answers the code, as Embedded Signup does.
 */
async function fakeMetaSdk(page: Page, result: { code: string; phoneNumberId: string; wabaId: string }): Promise<void> {
  const finish = JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH', data: { phone_number_id: result.phoneNumberId, waba_id: result.wabaId } });
  await page.route('https://www.facebook.com/embedded-signup', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<script>parent.postMessage(${JSON.stringify(finish)}, '*')</script>` }),
  );
  await page.route('https://connect.facebook.net/en_US/sdk.js', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `window.fakeSdkCalls = {};
window.FB = {
  init(options) { window.fakeSdkCalls.init = options; },
  login(callback, options) {
    window.fakeSdkCalls.login = options;
    window.addEventListener('message', (event) => {
      if (event.origin === 'https://www.facebook.com') setTimeout(() => callback({ authResponse: { code: ${JSON.stringify(result.code)} } }), 0);
    });
    const frame = document.createElement('iframe');
    frame.src = 'https://www.facebook.com/embedded-signup';
    document.body.appendChild(frame);
  },
};`,
    }),
  );
}
