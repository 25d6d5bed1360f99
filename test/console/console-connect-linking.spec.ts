import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { PasskeyRequiredError } from '../whatsapp-sim/passkey-gate.js';
import { collectPageErrors, launchChromium, screenshot, signedInContext, startConsoleStack, type ConsoleStack } from './browser-support.js';

/**
 * Issue 37 in the Console, against the real service and the simulator: WhatsApp's passkey gate
 * explained in plain words (what the phone showed, why nothing was linked, what to do instead),
 * linking by a code typed on the phone instead of a QR code, and stopping and restarting a
 * linked number. No text names an API route.
 */
jest.setTimeout(90_000);

describe('the Console in a browser: passkey gate, pairing code, stop and restart', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let errors: string[] = [];

  /** A new workspace with its owner signed in, on the WhatsApp page. */
  const ownerOnConnectPage = async (email: string): Promise<Page> => {
    const owner = await stack.t.factories.user({ name: 'Olga Owner', email });
    const ws = await stack.t.factories.workspace({ name: 'Linking shop' });
    await stack.t.factories.member(ws.id, owner.id, 'owner');
    const page = await (await signedInContext(browser, stack, owner.id)).newPage();
    errors = collectPageErrors(page);
    await page.goto(`${stack.base}/connect`);
    await page.getByRole('heading', { name: 'Link a WhatsApp number' }).waitFor();
    return page;
  };

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('a gated account: the page explains the passkey check, shows no more codes and offers the Cloud API and a new try', async () => {
    const page = await ownerOnConnectPage('olga@passkey.test');
    const phone = '15550173701';
    stack.sim.gateAccount(phone);
    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const qr = page.getByRole('img', { name: /QR code to link WhatsApp/ });
    await qr.waitFor({ timeout: 20_000 });
    const code = (await qr.getAttribute('data-qr'))!;
    await expect(stack.sim.scanQr(code, phone)).rejects.toThrow(PasskeyRequiredError);

    // Live, without a reload: the explanation, once, instead of the code.
    const alert = page.getByRole('alert');
    await alert.getByRole('heading', { name: 'WhatsApp asks for a passkey' }).waitFor({ timeout: 10_000 });
    await expect(alert.count()).resolves.toBe(1);
    const text = await alert.innerText();
    expect(text).toContain('“Continue on WhatsApp Web”');
    expect(text).toContain('the number was not linked and nothing of this attempt was kept');
    expect(text).toContain('Cloud API');
    await expect(alert.getByRole('link', { name: 'Settings → Cloud API' }).getAttribute('href')).resolves.toBe('/settings/cloud');
    await qr.waitFor({ state: 'detached' });
    await expect(page.getByRole('timer').count()).resolves.toBe(0);
    await page.locator('.badge', { hasText: 'Not linked' }).waitFor();
    expect(await page.locator('main').innerText()).not.toContain('/api/');
    await screenshot(page, '60-connect-passkey-required');

    // The same on a fresh load.
    await page.reload();
    await page.getByRole('alert').getByRole('heading', { name: 'WhatsApp asks for a passkey' }).waitFor();

    // "Try again" starts afresh: a new code, the explanation gone.
    stack.sim.gateAccount(phone, false);
    await page.getByRole('button', { name: 'Try again' }).click();
    await qr.waitFor({ timeout: 20_000 });
    expect(await qr.getAttribute('data-qr')).not.toBe(code);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await qr.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('links with a code typed on the phone, then stops (staying linked) and restarts', async () => {
    const page = await ownerOnConnectPage('olga@code.test');
    const phone = '15550173801';
    await page.getByRole('button', { name: 'Link with a code instead' }).click();
    const number = page.getByLabel('Phone number of the WhatsApp account');
    await number.fill('not a number');
    await page.getByRole('button', { name: 'Get a code' }).click();
    await page.getByRole('alert').getByText('Invalid phone number.').waitFor();
    await number.fill(`+${phone}`);
    await page.getByRole('button', { name: 'Get a code' }).click();
    const shown = page.locator('[data-pairing-code]');
    await shown.waitFor({ timeout: 20_000 });
    const code = (await shown.textContent())!;
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/);
    await page.getByText('Link with phone number instead', { exact: false }).waitFor();
    await page
      .getByRole('timer')
      .getByText(/^The code works for \d+ more seconds\.$/)
      .waitFor();
    await page.locator('.badge', { hasText: 'Waiting for the code' }).waitFor();
    await expect(page.getByRole('img', { name: /QR code to link WhatsApp/ }).count()).resolves.toBe(0);
    await screenshot(page, '61-connect-pairing-code');

    await stack.sim.waitForPairingCode(phone);
    await stack.sim.enterPairingCode(phone, code);
    await page.getByRole('heading', { name: 'Linked number' }).waitFor({ timeout: 30_000 });
    await page.locator('.badge', { hasText: 'Connected' }).waitFor({ timeout: 30_000 });
    await page.getByText(phone).first().waitFor();
    await stack.sim.waitForLive(phone);

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.locator('.badge', { hasText: 'Stopped' }).waitFor({ timeout: 20_000 });
    await page.getByText('Stopped: the number stays linked', { exact: false }).waitFor();
    await stack.sim.waitForOffline(phone);
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await page.locator('.badge', { hasText: 'Connected' }).waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Restart' }).click();
    await page.locator('.badge', { hasText: 'Connected' }).waitFor({ timeout: 30_000 });
    await stack.sim.waitForLive(phone);
    expect(await page.locator('main').innerText()).not.toContain('/api/');
    expect(errors).toEqual([]);
  });
});
