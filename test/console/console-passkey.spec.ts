import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SoftAuthenticator, type AssertionOverrides } from '../whatsapp-sim/soft-authenticator.js';
import type { LinkedDevice } from '../whatsapp-sim/sim-model.js';
import { collectPageErrors, cookieOf, launchChromium, screenshot, signedInContext, startConsoleStack, type ConsoleStack } from './browser-support.js';

/**
 * WhatsApp's passkey check run by the service (CHAT_PASSKEY_CEREMONY, docs/passkey.md) in the
 * Console, against the real service and the simulator: a gated number whose phone registered a
 * passkey. The Console explains the check and opens WhatsApp Web with the one-time link; the
 * browser's part (the extension's two calls and the WebAuthn assertion) is done here from node
 * with a software authenticator; the Console then shows the phone's code, and Confirm links the
 * number, while "It shows another code" stops it with nothing linked. Members who are not owners
 * or admins follow along without buttons.
 */
jest.setTimeout(120_000);

const WEB = 'https://web.whatsapp.com/';

/** The fragment's payload of the link the Console opened. */
interface LinkPayload {
  v: number;
  api: string;
  workspace_id: string;
  token: string;
}

describe('the Console in a browser: the passkey check', () => {
  let stack: ConsoleStack;
  let browser: Browser;

  /** An owner's Console on the WhatsApp page, with WhatsApp Web answered by a loopback stand-in (nothing leaves the machine). */
  const ownerOnConnectPage = async (email: string): Promise<{ page: Page; context: BrowserContext; workspaceId: string; errors: string[] }> => {
    const owner = await stack.t.factories.user({ name: 'Petra Passkey', email });
    const ws = await stack.t.factories.workspace({ name: 'Passkey shop' });
    await stack.t.factories.member(ws.id, owner.id, 'owner');
    const context = await signedInContext(browser, stack, owner.id);
    await context.route(`${WEB}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>WhatsApp Web (stand-in)</title>' }));
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${stack.base}/connect`);
    await page.getByRole('heading', { name: 'Link a WhatsApp number' }).waitFor();
    return { page, context, workspaceId: ws.id, errors };
  };

  /**
   * The gated account's phone scans the code the page shows: the passkey check starts. `linked`
   * settles when the ceremony ends (in an object: an async function would wait for it).
   */
  const scanGated = async (page: Page, phone: string, auth: SoftAuthenticator): Promise<{ linked: Promise<LinkedDevice> }> => {
    stack.sim.gateAccount(phone);
    stack.sim.registerPasskey(phone, auth.passkey);
    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const qr = page.getByRole('img', { name: /QR code to link WhatsApp/ });
    await qr.waitFor({ timeout: 20_000 });
    const linked = stack.sim.scanQr((await qr.getAttribute('data-qr'))!, phone);
    linked.catch(() => undefined);
    return { linked };
  };

  /**
   * The check explained, then Open WhatsApp Web: a new tab on the one-time link; and what the
   * extension does there first, fetching the challenge. Answers the link and the challenge.
   */
  const openWhatsAppWeb = async (o: {
    page: Page;
    context: BrowserContext;
    workspaceId: string;
  }): Promise<{ route: string; token: string; challenge: string }> => {
    const { page, context } = o;
    const check = page.locator('[data-passkey]');
    await check.and(page.locator('[data-passkey="passkey_required"]')).waitFor({ timeout: 20_000 });
    const text = await check.innerText();
    expect(text).toContain('WhatsApp asks for a passkey check');
    expect(text).toContain('extensions/passkey');
    expect(text).toMatch(/Finish by \d{1,2}:\d{2}/);
    await page.locator('.badge', { hasText: 'Passkey check' }).waitFor();
    // No QR code, pairing code, or "Show the QR code" meanwhile; no route named.
    await expect(page.getByRole('img', { name: /QR code to link WhatsApp/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Show the QR code' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Link with a code instead' }).count()).resolves.toBe(0);
    expect(await page.locator('main').innerText()).not.toContain('/api/');
    await screenshot(page, '62-connect-passkey-1-open');

    const [popup] = await Promise.all([context.waitForEvent('page'), page.locator('[data-passkey-open]').click()]);
    await popup.waitForURL((url) => url.href.startsWith(WEB));
    const url = popup.url();
    expect(url.startsWith(`${WEB}#svc-passkey=`)).toBe(true);
    await popup.close();
    await page.getByText('Opened in a new tab.', { exact: false }).waitFor();
    const payload = JSON.parse(Buffer.from(url.slice(`${WEB}#svc-passkey=`.length), 'base64url').toString('utf8')) as LinkPayload;
    expect(payload).toEqual({ v: 1, api: stack.base, workspace_id: o.workspaceId, token: expect.any(String) });

    const route = `${payload.api}/api/chat/passkey/${payload.workspace_id}`;
    const challenge = await fetch(`${route}/challenge`, { headers: { 'X-Passkey-Token': payload.token } });
    expect(challenge.status).toBe(200);
    const { options } = (await challenge.json()) as { options: { challenge: string; rpId: string } };
    expect(options.rpId).toBe('whatsapp.com');
    await page.locator('[data-passkey="passkey_assertion"]').waitFor();
    await page.getByText('Approve with your passkey in the WhatsApp Web tab', { exact: false }).waitFor();
    await page.locator('[data-passkey-open]').waitFor();
    await screenshot(page, '62-connect-passkey-2-approve');
    return { route, token: payload.token, challenge: options.challenge };
  };

  /** The passkey's assertion, as the extension posts it (`spoil`: what WhatsApp should refuse). */
  const postAssertion = (
    link: { route: string; token: string; challenge: string },
    auth: SoftAuthenticator,
    spoil: AssertionOverrides = {},
  ): Promise<Response> =>
    fetch(`${link.route}/assertion`, {
      method: 'POST',
      headers: { 'X-Passkey-Token': link.token, 'Content-Type': 'application/json' },
      body: JSON.stringify(auth.assert(link.challenge, spoil)),
    });

  /** The whole browser part; ends when the Console shows the phone's code. */
  const openAndApprove = async (o: { page: Page; context: BrowserContext; workspaceId: string }, phone: string, auth: SoftAuthenticator): Promise<void> => {
    const { page } = o;
    const assertion = await postAssertion(await openWhatsAppWeb(o), auth);
    expect({ status: assertion.status, body: await assertion.json() }).toEqual({ status: 200, body: { state: expect.any(String) } });
    const code = page.locator('[data-passkey-code]');
    await code.waitFor({ timeout: 20_000 });
    await page.getByText('Does the phone show this code?').waitFor();
    expect(await code.textContent()).toBe(stack.sim.passkeyCode(phone));
    expect(await code.textContent()).toMatch(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/);
  };

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack({ CHAT_PASSKEY_CEREMONY: 'true' }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('opens WhatsApp Web, shows the phone’s code after the passkey, and Confirm links the number', async () => {
    const o = await ownerOnConnectPage('petra@passkey-confirm.test');
    const phone = '15550174101';
    const auth = new SoftAuthenticator();
    const { linked } = await scanGated(o.page, phone, auth);
    await openAndApprove(o, phone, auth);
    await screenshot(o.page, '62-connect-passkey-3-code');

    await o.page.locator('[data-passkey-confirm]').click();
    const device = await linked;
    expect(device.jid).toContain(phone);
    await o.page.getByRole('heading', { name: 'Linked number' }).waitFor({ timeout: 30_000 });
    await o.page.locator('.badge', { hasText: 'Connected' }).waitFor({ timeout: 30_000 });
    await o.page.getByText(phone).first().waitFor();
    await stack.sim.waitForLive(phone);
    await expect(o.page.locator('[data-passkey]').count()).resolves.toBe(0);
    expect(o.errors).toEqual([]);
  });

  it('"It shows another code" stops it and nothing is linked; an agent sees the code but no buttons', async () => {
    const o = await ownerOnConnectPage('petra@passkey-mismatch.test');
    const agent = await stack.t.factories.user({ name: 'Arne Agent', email: 'arne@passkey-mismatch.test' });
    await stack.t.factories.member(o.workspaceId, agent.id, 'agent');
    const phone = '15550174201';
    const auth = new SoftAuthenticator();
    const { linked } = await scanGated(o.page, phone, auth);

    const agentContext = await signedInContext(browser, stack, agent.id);
    const watcher = await agentContext.newPage();
    const watcherErrors = collectPageErrors(watcher);
    await watcher.goto(`${stack.base}/connect`);
    await watcher.locator('[data-passkey="passkey_required"]').waitFor({ timeout: 20_000 });
    await expect(watcher.locator('[data-passkey-open]').count()).resolves.toBe(0);

    await openAndApprove(o, phone, auth);
    const code = (await o.page.locator('[data-passkey-code]').textContent())!;
    // Live on the agent's page too, without buttons.
    await expect(watcher.locator('[data-passkey-code]').textContent({ timeout: 20_000 })).resolves.toBe(code);
    await expect(watcher.locator('[data-passkey] button').count()).resolves.toBe(0);
    await watcher.getByText('An owner or admin of this workspace confirms the code here.').waitFor();

    await o.page.getByRole('button', { name: 'It shows another code' }).click();
    await o.page.getByText('Stopped: nothing was linked.', { exact: false }).waitFor({ timeout: 20_000 });
    await expect(o.page.locator('[data-passkey]').count()).resolves.toBe(0);
    await o.page.locator('.badge', { hasText: 'Not linked' }).waitFor();
    await o.page.getByRole('button', { name: 'Show the QR code' }).waitFor();
    await expect(linked).rejects.toThrow();
    expect(stack.sim.devicesOf(phone)).toEqual([]);
    await watcher.locator('[data-passkey]').waitFor({ state: 'detached', timeout: 20_000 });

    const status = await stack.t
      .http()
      .get('/api/chat/status')
      .set('Cookie', await cookieOf(o.context))
      .set('X-Tenant-ID', o.workspaceId);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ logged_in: false, connected: false, state: 'stopped' });
    expect(status.body.passkey ?? null).toBeNull();
    expect(o.errors).toEqual([]);
    expect(watcherErrors).toEqual([]);
  });

  it('a passkey WhatsApp refuses ends the check: the page says so in plain words and offers a new try', async () => {
    const o = await ownerOnConnectPage('petra@passkey-refused.test');
    const phone = '15550174301';
    const auth = new SoftAuthenticator();
    const { linked } = await scanGated(o.page, phone, auth);
    const refused = await postAssertion(await openWhatsAppWeb(o), auth, { foreignKey: true });
    expect(refused.status).toBe(400);
    await expect(linked).rejects.toThrow();

    const problem = o.page.locator('.note-error');
    await problem.waitFor({ timeout: 20_000 });
    const text = await problem.innerText();
    expect(text).toMatch(/^WhatsApp did not finish the passkey check \(.+\), so nothing was linked\. Press “Show the QR code” to try again\.$/);
    await expect(o.page.locator('[data-passkey]').count()).resolves.toBe(0);
    await o.page.locator('.badge', { hasText: 'Not linked' }).waitFor();
    await o.page.getByRole('button', { name: 'Show the QR code' }).waitFor();
    expect(await o.page.locator('main').innerText()).not.toContain('/api/');
    expect(stack.sim.devicesOf(phone)).toEqual([]);
    await screenshot(o.page, '62-connect-passkey-4-refused');
    expect(o.errors).toEqual([]);
  });
});
