import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestUser } from '../support/factories.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { collectPageErrors, cookieOf, launchChromium, screenshot, signedInContext, startConsoleStack, until, type ConsoleStack } from './browser-support.js';

/**
 * What the Console says about the scan channel, against the real service (real Baileys, the
 * loopback WhatsApp simulator): a new workspace's overview (empty chart, no webhook), the QR page
 * (which WhatsApp server, the development hint, the code's countdown, Cancel), a conversation
 * that tells before anyone types that the number is not connected (live, both ways), the reason
 * a number got unlinked on the phone, "Scanned, linking…" between a scan and the connection, a
 * conversation started without a first message, the contacts page following changes made
 * elsewhere, and WhatsApp out of reach said once. No text names an API
 * route: the Console speaks of its buttons.
 */
// Linking a device costs seconds of pure-JS curve math on a loaded machine.
jest.setTimeout(60_000);

const PHONE = '15550170001';
const CONTACT = '4915100170001';
/** The number linked again after the phone removed the first. */
const RELINKED = '15550170002';

/** The visible text of the page's main area. */
function mainText(page: Page): Promise<string> {
  return page.locator('main').innerText();
}

/** An API text's reason as the Console shows it: without the route clause, as a sentence. */
function reasonOf(apiText: string): string {
  const cut = apiText.search(/\s*[;:,]?\s*call (GET|POST|PUT|PATCH|DELETE) \/api\//);
  const reason = (cut >= 0 ? apiText.slice(0, cut) : apiText).trim();
  const sentence = reason.charAt(0).toUpperCase() + reason.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

type OwnerApi = (method: 'get' | 'post', path: string) => Promise<Record<string, unknown>>;

/** A workspace with its owner signed in to a browser context, and the API as that owner. */
async function signedInOwner(
  stack: ConsoleStack,
  browser: Browser,
  email: string,
): Promise<{ owner: TestUser; workspaceId: string; context: BrowserContext; asOwner: OwnerApi }> {
  const owner = await stack.t.factories.user({ name: 'Olivia Owner', email });
  const ws = await stack.t.factories.workspace({ name: 'Fresh shop' });
  await stack.t.factories.member(ws.id, owner.id, 'owner');
  const context = await signedInContext(browser, stack, owner.id);
  const asOwner: OwnerApi = async (method, path) => {
    const request = stack.t
      .http()
      [method](path)
      .set('Cookie', await cookieOf(context))
      .set('X-Tenant-ID', ws.id);
    // A Console POST carries the Console's Origin.
    const res = await (method === 'post' ? request.set('Origin', stack.base) : request);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return res.body as Record<string, unknown>;
  };
  return { owner, workspaceId: ws.id, context, asOwner };
}

describe('the Console in a browser: linking a number, and its state on every page', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let workspaceId: string;
  let page: Page;
  let errors: string[];
  let asOwner: OwnerApi;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack(), launchChromium()]);
    let context: BrowserContext;
    ({ workspaceId, context, asOwner } = await signedInOwner(stack, browser, 'olivia@connect.test'));
    page = await context.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it("shows a new workspace's overview: the chart says what will appear there, the webhook tile how to add one", async () => {
    await page.goto(`${stack.base}/`);
    await page.getByRole('heading', { name: 'Overview · Fresh shop' }).waitFor();
    const chart = page.locator('.card', { has: page.getByRole('heading', { name: /^Messages per day/ }) });
    await chart.getByText('No messages in the last 14 days').waitFor();
    await chart.getByText("Each day's messages will appear here as a bar, received and sent, as soon as conversations start.").waitFor();
    await expect(chart.getByRole('link', { name: 'link a number' }).getAttribute('href')).resolves.toBe('/connect');
    await expect(chart.locator('svg').count()).resolves.toBe(0);

    const hooks = page.locator('.tile', { hasText: 'Webhook deliveries' });
    await hooks.getByText('No webhook yet — add one in Settings → Webhooks.').waitFor();
    await expect(hooks.locator('.tile-value').count()).resolves.toBe(0);
    await screenshot(page, '50-overview-new-workspace');
    await hooks.getByRole('link', { name: 'Settings → Webhooks' }).click();
    await page.waitForURL(`${stack.base}/settings/webhooks`);
    await page.getByText('No webhooks yet.').waitFor();
  });

  it('names the WhatsApp server with the development hint, counts the QR code down, and cancels it', async () => {
    await page.goto(`${stack.base}/connect`);
    const server = page.locator('.card', { has: page.getByRole('heading', { name: 'WhatsApp server' }) });
    await expect(server.locator('[data-endpoint]').textContent()).resolves.toBe(stack.sim.url);
    await server.getByText("not WhatsApp's own server").waitFor();
    // Tests run outside production: the page explains the simulator.
    const hint = await server.locator('.dev-hint').innerText();
    expect(hint).toContain('npm run sim');
    expect(hint).toContain('docs/whatsapp-sim.md');

    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const qr = page.getByRole('img', { name: /QR code to link WhatsApp/ });
    await qr.waitFor({ timeout: 20_000 });
    const code = await qr.getAttribute('data-qr');
    // The code as text, for the simulator's scan command.
    await expect(server.locator('[data-qr-text]').textContent()).resolves.toBe(code);

    // The countdown runs to the code's expires_at.
    const served = await asOwner('get', '/api/chat/qr');
    expect(served).toMatchObject({ pending: true, code });
    const expiresAt = Date.parse(String(served.expires_at));
    const timer = page.getByRole('timer');
    const seconds = async (): Promise<number> => {
      const text = (await timer.textContent()) ?? '';
      const shown = /^This code is valid for (\d+) more seconds?\.$/.exec(text);
      if (!shown) throw new Error(`not a countdown: ${text}`);
      return Number(shown[1]);
    };
    const first = await seconds();
    const readAt = Date.now();
    expect(first).toBeGreaterThan(0);
    // The seconds to expires_at, give or take the page's one-second tick and a render that a busy
    // machine (both cores taken by the suite) holds back by a second or more.
    expect(Math.abs(first - (expiresAt - readAt) / 1000)).toBeLessThanOrEqual(3.5);
    await until('the countdown to move', async () => (await seconds()) < first);
    await screenshot(page, '51-connect-qr-countdown');
    expect(await mainText(page)).not.toContain('/api/');

    // Cancel: no code waits any more, and the page offers a new one.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await qr.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Show the QR code' }).waitFor();
    await expect(page.getByRole('timer').count()).resolves.toBe(0);
    expect(await asOwner('get', '/api/chat/status')).toMatchObject({ logged_in: false, qr_pending: false, connected: false });
    expect(await asOwner('get', '/api/chat/qr')).toMatchObject({ pending: false, image: '' });
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    expect(await mainText(page)).not.toContain('/api/');
  });

  it('tells in a conversation that the number is not connected, and follows the session live both ways', async () => {
    const conversation = await new InboxFactories(stack.t.app).conversation(workspaceId, {
      phone: CONTACT,
      contact: { phone: CONTACT, name: 'Grace' },
      content: 'Anyone there?',
    });
    await page.goto(`${stack.base}/inbox/${conversation.id}`);
    await page.locator('.bubble-inbound', { hasText: 'Anyone there?' }).waitFor();
    const banner = page.locator('[data-scan-banner]');
    await banner.getByText('No WhatsApp number is linked, so messages cannot be sent from here.', { exact: false }).waitFor();
    await expect(banner.getByRole('link', { name: 'Link a number' }).getAttribute('href')).resolves.toBe('/connect');

    // Linked while the conversation is open: the banner goes without a reload.
    await asOwner('post', '/api/chat/connect');
    const { code } = (await asOwner('get', '/api/chat/qr')) as { code: string };
    await stack.sim.scanQr(code, PHONE);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await stack.sim.waitForLive(PHONE);

    // The phone removes the device: the banner is back at once, with the reason.
    stack.sim.unlink(PHONE);
    await banner.waitFor({ timeout: 30_000 });
    const status = await asOwner('get', '/api/chat/status');
    expect(status).toMatchObject({ logged_in: false, connected: false });
    expect(typeof status.error).toBe('string');
    await banner.getByText(reasonOf(String(status.error)), { exact: false }).waitFor();
    expect(await banner.innerText()).not.toContain('/api/');
    await screenshot(page, '52-conversation-not-connected');

    // And on a fresh load, before anyone types.
    await page.reload();
    await page.locator('.bubble-inbound', { hasText: 'Anyone there?' }).waitFor();
    await banner.getByText(reasonOf(String(status.error)), { exact: false }).waitFor();
  });

  it('says on the overview and the QR page why the number is no longer linked, once and without a route', async () => {
    const status = await asOwner('get', '/api/chat/status');
    const reason = reasonOf(String(status.error));

    await page.goto(`${stack.base}/`);
    const tile = page.locator('.tile', { hasText: 'WhatsApp number' });
    await expect(tile.locator('[data-chat-reason]').textContent()).resolves.toBe(reason);
    await tile.getByText('Not linked', { exact: true }).waitFor();
    expect(await tile.innerText()).not.toContain('/api/');
    await screenshot(page, '53-overview-unlinked');

    await page.goto(`${stack.base}/connect`);
    await page.getByRole('heading', { name: 'Link a WhatsApp number' }).waitFor();
    const alert = page.getByRole('alert');
    await alert.getByText(reason, { exact: false }).waitFor();
    await expect(alert.count()).resolves.toBe(1);
    await expect(alert.textContent()).resolves.toContain('Press “Show the QR code”');
    expect((await mainText(page)).split(reason).length - 1).toBe(1);
    expect(await mainText(page)).not.toContain('/api/');
    await screenshot(page, '54-connect-unlinked');
    expect(errors).toEqual([]);
  });

  it('says "Scanned, linking…" from the scan until the number is connected, also after a reload', async () => {
    await page.goto(`${stack.base}/connect`);
    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const qr = page.getByRole('img', { name: /QR code to link WhatsApp/ });
    await qr.waitFor({ timeout: 20_000 });
    const code = (await qr.getAttribute('data-qr'))!;
    // The simulated server holds its restart after the pairing (WhatsApp's takes a moment): the
    // step between the scan and the connection stays on screen until the test lets it go.
    let restart!: () => void;
    const device = await stack.sim.scanQr(code, RELINKED, { restartAfter: new Promise<void>((resolve) => (restart = resolve)) });
    try {
      const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Linked number' }) });
      await card.getByText('Scanned, linking…', { exact: true }).waitFor({ timeout: 20_000 });
      await expect(qr.count()).resolves.toBe(0);
      await expect(card.locator('.big-number').textContent()).resolves.toBe(`+${RELINKED}`);
      await expect(card.getByRole('button', { name: 'Reconnect' }).count()).resolves.toBe(0);
      expect(await asOwner('get', '/api/chat/status')).toMatchObject({ logged_in: true, connected: false, qr_pending: false, jid: device.jid });
      await screenshot(page, '56-connect-scanned-linking');

      // A page opened meanwhile tells the same from the service alone (nothing was shown in it).
      await page.reload();
      await card.getByText('Scanned, linking…', { exact: true }).waitFor();
      await expect(page.getByRole('alert').count()).resolves.toBe(0);
    } finally {
      restart();
    }
    const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Linked number' }) });
    await card.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(card.getByText('Scanned, linking…').count()).resolves.toBe(0);
    expect(await mainText(page)).not.toContain('/api/');
    expect(errors).toEqual([]);
  });

  it('starts a conversation without a first message, and the contacts page follows contacts changed elsewhere live', async () => {
    // A number on WhatsApp (the service checks before it starts a conversation).
    stack.sim.addContact('4915100170009');
    await page.goto(`${stack.base}/inbox`);
    await page.getByRole('button', { name: 'New conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New conversation' });
    await dialog.getByLabel('Phone number').fill('+49 151 0017 0009');
    // No text: the button says what happens, and the service answers `message: null`.
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/conversations') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Start' }).click();
    const started = (await (await answered).json()) as Record<string, unknown>;
    expect(started.message).toBeNull();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.conversation-header').getByRole('heading', { name: '+4915100170009' }).waitFor();
    await expect(page.locator('.bubble-outbound').count()).resolves.toBe(0);
    expect(stack.sim.sent(RELINKED).filter((m) => m.to.includes('4915100170009'))).toEqual([]);

    // Contacts created, renamed and deleted by someone else (here: requests beside the page).
    await page.goto(`${stack.base}/contacts`);
    await page.getByRole('cell', { name: '+4915100170009', exact: true }).waitFor();
    const asOwnerElsewhere = async (method: 'post' | 'patch' | 'delete', path: string, body?: object): Promise<Record<string, unknown>> => {
      const res = await stack.t
        .http()
        [method](path)
        .set('Cookie', await cookieOf(page.context()))
        .set('X-Tenant-ID', workspaceId)
        .set('Origin', stack.base)
        .send(body);
      expect({ path, ok: res.status < 300 }).toEqual({ path, ok: true });
      return res.body as Record<string, unknown>;
    };
    const lena = await asOwnerElsewhere('post', '/api/contacts', { phone: '4915100170010', name: 'Lena Live' });
    await page.getByRole('cell', { name: 'Lena Live', exact: true }).waitFor();
    await asOwnerElsewhere('patch', `/api/contacts/${String(lena.id)}`, { name: 'Lena Renamed' });
    await page.getByRole('cell', { name: 'Lena Renamed', exact: true }).waitFor();
    await expect(page.getByRole('cell', { name: 'Lena Live', exact: true }).count()).resolves.toBe(0);
    await asOwnerElsewhere('delete', `/api/contacts/${String(lena.id)}`);
    await page.getByRole('cell', { name: 'Lena Renamed', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: '+4915100170009', exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('the Console in a browser: WhatsApp out of reach', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let page: Page;
  let url: string;
  let errors: string[];
  let asOwner: OwnerApi;

  beforeAll(async () => {
    // A loopback port nothing listens on: the socket is refused before any QR code. Port 1
    // (tcpmux) rather than a freed ephemeral one, which a parallel test may bind meanwhile.
    url = 'ws://127.0.0.1:1/ws/chat';
    [stack, browser] = await Promise.all([startConsoleStack({ WA_WEBSOCKET_URL: url }), launchChromium()]);
    let context: BrowserContext;
    ({ context, asOwner } = await signedInOwner(stack, browser, 'olivia@unreachable.test'));
    page = await context.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('says once, in its own words, that WhatsApp could not be reached, and names the server it tried', async () => {
    await page.goto(`${stack.base}/connect`);
    await expect(page.locator('[data-endpoint]').textContent()).resolves.toBe(url);
    // The stop reaches the page live (session.updated), which then reads the QR and the status again.
    const reread = page.waitForResponse((r) => r.url().endsWith('/api/chat/status'), { timeout: 20_000 });
    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const cause = `Could not reach WhatsApp: connect ECONNREFUSED ${new URL(url).host}`;
    const alert = page.getByRole('alert');
    // Waits for the kind of problem, then compares the whole text (a failure shows what it said).
    await alert.getByText('Could not reach WhatsApp', { exact: false }).waitFor({ timeout: 20_000 });
    await expect(alert.textContent()).resolves.toContain(cause);
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    // The status (on the page too by now) and the QR endpoint carry the same text; it still shows once.
    await reread;
    expect(await asOwner('get', '/api/chat/status')).toMatchObject({ logged_in: false, error: expect.stringContaining('could not reach WhatsApp') });
    expect(await asOwner('get', '/api/chat/qr')).toMatchObject({ pending: false, error: expect.stringContaining('could not reach WhatsApp') });
    await alert.getByText(cause, { exact: false }).waitFor();
    await expect(alert.count()).resolves.toBe(1);
    await expect(alert.textContent()).resolves.toBe(`${cause}. Check that the WhatsApp server below is up, then press “Try again”.`);
    expect((await mainText(page)).split(cause).length - 1).toBe(1);
    expect(await mainText(page)).not.toContain('/api/');
    await screenshot(page, '55-connect-unreachable');

    // After a reload (the status alone says it), still once and without a route.
    await page.reload();
    await page.getByRole('alert').getByText(cause, { exact: false }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(1);
    expect(await mainText(page)).not.toContain('/api/');
    expect(errors).toEqual([]);
  });
});
