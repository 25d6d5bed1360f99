import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { chat, eventually, type Json, messageWhen, sentMessage, statusWhen, api, type E2eWorkspace } from '../e2e/e2e-support.js';
import { gatedScan as gatedScanWith } from '../e2e/linking-support.js';
import { startConsoleStack, type ConsoleStack } from './browser-support.js';
import { addPasskeyAuthenticator, CEREMONY_DONE, ceremonyStatus, completeCeremony, openPasskeyBrowser, type PasskeyBrowser } from './passkey-browser.js';

/**
 * Issue 43, the whole ceremony as a person does it: the real service (CHAT_PASSKEY_CEREMONY on,
 * the real Baileys driver) against the simulator playing WhatsApp and the phone, and Debian's
 * Chromium with the repository's extension loaded, a virtual WebAuthn authenticator holding the
 * account's passkey, and web.whatsapp.com mapped to a loopback page. The number links, then
 * receives and sends.
 */
jest.setTimeout(120_000);

describe('passkey ceremony in Chromium with the extension', () => {
  let stack: ConsoleStack;
  let browser: PasskeyBrowser;

  beforeAll(async () => {
    stack = await startConsoleStack({ CHAT_PASSKEY_CEREMONY: 'true' });
    browser = await openPasskeyBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const gatedScan = (phone: string) => gatedScanWith(stack.t, stack.sim, phone, { id: browser.passkey.credentialId, publicKey: browser.passkey.publicKey });

  async function openLink(ws: E2eWorkspace): Promise<string> {
    const answer = await chat(stack.t, ws.owner, 'post', '/api/chat/passkey/link');
    expect(answer.status).toBe(200);
    return String(answer.body.url);
  }

  it('links through the whole ceremony from the Console, then receives and sends', async () => {
    const { t, sim } = stack;
    const phone = '15550104401';
    // The owner's Console runs in the same browser as the extension (one desktop browser).
    const owner = await t.factories.user({ name: 'Kim Passkey', email: 'kim.passkey@example.test' });
    const workspace = await t.factories.workspace({ name: 'Passkey bakery' });
    await t.factories.member(workspace.id, owner.id, 'owner');
    const [name, value] = (await t.factories.sessionCookie(owner.id)).split('=') as [string, string];
    await browser.context.addCookies([{ name, value, url: stack.base }]);
    const keyed = await t.factories.apiKey(workspace.id);
    const ws: E2eWorkspace = { workspaceId: workspace.id, owner: { cookie: `${name}=${value}`, workspaceId: workspace.id }, key: keyed.key };
    const consolePage = await browser.context.newPage();
    await consolePage.goto(`${stack.base}/connect`);
    sim.gateAccount(phone);
    sim.registerPasskey(phone, { id: browser.passkey.credentialId, publicKey: browser.passkey.publicKey });
    await consolePage.getByRole('button', { name: 'Show the QR code' }).click();
    const qr = consolePage.getByRole('img', { name: /QR code to link WhatsApp/ });
    await qr.waitFor({ timeout: 20_000 });
    const linking = sim.scanQr((await qr.getAttribute('data-qr'))!, phone);
    linking.catch(() => undefined);

    // The Console explains the check and opens WhatsApp Web with the one-time link, in a new tab.
    await consolePage.locator('[data-passkey="passkey_required"]').waitFor({ timeout: 20_000 });
    const [tab] = await Promise.all([browser.context.waitForEvent('page'), consolePage.locator('[data-passkey-open]').click()]);
    await addPasskeyAuthenticator(tab, browser.passkey);
    await tab.waitForURL((url) => url.origin === 'https://web.whatsapp.com');
    // The extension took the one-time link out of the address bar before WhatsApp's page could read it.
    await eventually('the fragment removed', async () => new URL(tab.url()).hash === '');
    expect(await completeCeremony(tab)).toBe(CEREMONY_DONE);
    expect((await ceremonyStatus(tab)).kind).toBe('done');
    expect(sim.passkeyCeremony(phone)).toMatchObject({ handoffProof: true });

    // The Console shows the phone's code; the person compares and confirms.
    const code = consolePage.locator('[data-passkey-code]');
    await code.waitFor({ timeout: 15_000 });
    expect((await code.innerText()).trim()).toBe(sim.passkeyCode(phone));
    await consolePage.locator('[data-passkey-confirm]').click();
    const device = await linking;
    expect(await statusWhen(t, ws, 'connected', (s) => s.connected === true)).toMatchObject({ state: 'connected', jid: device.jid });
    await consolePage.getByText('Connected', { exact: false }).first().waitFor();
    await tab.close();
    await consolePage.close();

    await sim.waitForLive(phone);
    const contact = '15550104499';
    sim.addContact(contact, 'Robin');
    const inboundId = await sim.deliverText({ from: contact, to: phone, text: 'hi from a passkey-gated number' });
    const inbound = await messageWhen(t, ws, inboundId);
    const reply = await api(t, ws, 'post', `/api/conversations/${String(inbound.conversation_id)}/messages`, { content: 'linked with a passkey' });
    expect(reply.status).toBe(201);
    const out = await sentMessage(t, ws, String(inbound.conversation_id), String(reply.body.id));
    await eventually('the reply at the contact', () => sim.sent(phone).some((m) => m.id === out.chat_message_id), 20_000);
  });

  it('an expired or used link, or one of another workspace, shows a clear error on the card and links nothing', async () => {
    const { t, sim } = stack;
    const phone = '15550104402';
    const { ws } = await gatedScan(phone);
    const other = await gatedScan('15550104403');
    const first = await openLink(ws);
    // A newer link makes the first worthless.
    await openLink(ws);
    await browser.page.goto(first, { waitUntil: 'domcontentloaded' });
    expect(await completeCeremony(browser.page)).toMatch(/^Invalid passkey link/i);
    // The link of another workspace, pointed at this one.
    const foreign = new URL(await openLink(other.ws));
    const payload = JSON.parse(Buffer.from(foreign.hash.replace('#svc-passkey=', ''), 'base64url').toString('utf8')) as Json;
    const swapped = Buffer.from(JSON.stringify({ ...payload, workspace_id: ws.workspaceId })).toString('base64url');
    await browser.page.goto(`https://web.whatsapp.com/#svc-passkey=${swapped}`, { waitUntil: 'domcontentloaded' });
    expect(await completeCeremony(browser.page)).toMatch(/belongs to a different workspace/i);
    // Nothing reached WhatsApp; both sessions still wait for their person.
    expect(sim.passkeyCeremony(phone)?.step).toBe('request');
    expect((await chat(t, { key: ws.key }, 'get', '/api/chat/status')).body).toMatchObject({ state: 'passkey_required' });
    expect(sim.devicesOf(phone)).toEqual([]);
  });
});
