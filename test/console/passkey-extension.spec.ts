import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { addCredential, CEREMONY_DONE, ceremonyLink, ceremonyStatus, openCeremonyLink, openPasskeyBrowser, type PasskeyBrowser } from './passkey-browser.js';

/**
 * The passkey extension (extensions/passkey/) in Debian's Chromium against a stand-in service
 * that plays the two extension routes of docs/passkey.md: it takes the link from the address
 * before WhatsApp's page can see it, fetches the challenge with the token from its background
 * worker (the page's CSP allows none of that), and after the click sends a WebAuthn assertion
 * made in the page's world for whatsapp.com on https://web.whatsapp.com, which verifies with the
 * passkey's public key. The service's error text reaches the card.
 */

/** As browser-support.ts's SCREENSHOTS (not imported: that module loads the whole service). */
const SCREENSHOTS = resolve(import.meta.dirname, '../../test-artifacts/screenshots');

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The service's two extension routes, with CORS as the real service answers them. */
class FakePasskeyService {
  readonly workspaceId = randomUUID();
  readonly token = randomBytes(32).toString('base64url');
  readonly challenge = randomBytes(32).toString('base64url');
  readonly received: Received[] = [];
  /** The options' `timeout` (WhatsApp's is ten minutes). */
  timeoutMs = 600_000;
  /** What the next calls answer instead of the happy path. */
  failWith: { status: number; error: string } | undefined;
  private server: Server | undefined;
  api = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const cors = { 'Access-Control-Allow-Origin': '*' };
        const json = (status: number, body: unknown) =>
          res.writeHead(status, { ...cors, 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
        const route = path.match(/^\/api\/chat\/passkey\/([^/]+)\/(challenge|assertion)$/);
        if (!route) return json(404, { error: 'not found' });
        if (req.method === 'OPTIONS') {
          res
            .writeHead(204, {
              ...cors,
              'Access-Control-Allow-Headers': 'Content-Type, X-Passkey-Token',
              'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
              'Access-Control-Max-Age': '600',
            })
            .end();
          return;
        }
        if (this.failWith) return json(this.failWith.status, { error: this.failWith.error });
        const token = req.headers['x-passkey-token'];
        if (!token) return json(401, { error: 'passkey link missing' });
        if (token !== this.token) return json(401, { error: 'invalid passkey link' });
        if (route[1] !== this.workspaceId) return json(403, { error: 'passkey link belongs to a different workspace' });
        if (route[2] === 'challenge' && req.method === 'GET') {
          return json(200, {
            workspace_id: this.workspaceId,
            // WhatsApp's PublicKeyCredentialRequestOptionsJSON as captured (test/whatsapp-sim/passkey-gate.ts).
            options: {
              challenge: this.challenge,
              timeout: this.timeoutMs,
              rpId: 'whatsapp.com',
              allowCredentials: [],
              userVerification: 'required',
              extensions: { uvm: true },
            },
            expires_at: new Date(Date.now() + 300_000).toISOString(),
          });
        }
        if (route[2] === 'assertion' && req.method === 'POST') return json(200, { state: 'passkey_assertion' });
        return json(405, { error: 'method not allowed' });
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', () => done()));
    this.api = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  link(token = this.token): string {
    return ceremonyLink({ api: this.api, workspace_id: this.workspaceId, token });
  }

  /** Calls other than CORS preflights. */
  calls(): Received[] {
    return this.received.filter((call) => call.method !== 'OPTIONS');
  }

  stop(): Promise<void> {
    return new Promise((done) => {
      this.server?.closeAllConnections();
      this.server?.close(() => done());
    });
  }
}

/** What DevTools says of the page's connection (`secure`, `insecure-broken`, …). */
async function securityState({ cdp }: PasskeyBrowser): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const state = new Promise<string>((done) => {
    cdp.once('Security.visibleSecurityStateChanged', (event: { visibleSecurityState: { securityState: string } }) =>
      done(event.visibleSecurityState.securityState),
    );
    timer = setTimeout(() => done('no security state reported'), 5_000);
  });
  await cdp.send('Security.enable');
  try {
    return await state;
  } finally {
    clearTimeout(timer);
    await cdp.send('Security.disable');
  }
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

describe('the passkey extension in Chromium', () => {
  let browser: PasskeyBrowser;
  let service: FakePasskeyService;

  beforeAll(async () => {
    browser = await openPasskeyBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await service?.stop();
  });

  it('takes the link before the page sees it, fetches the challenge and sends an assertion that verifies', async () => {
    service = await new FakePasskeyService().start();
    const { page, passkey } = browser;
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const status = await openCeremonyLink(page, service.link());
    expect(status).toBe(CEREMONY_DONE);
    // The stand-in's certificate counts as valid (WebAuthn is refused on a page with certificate errors).
    expect(await securityState(browser)).toBe('secure');

    // The fragment is gone from the address, and WhatsApp's own first script never saw it nor the channel.
    expect(page.url()).toBe('https://web.whatsapp.com/');
    expect(await page.locator('html').getAttribute('data-first-hash')).toBe('');
    expect(await page.locator('html').getAttribute('data-spied')).toBe('');
    expect(browser.webWhatsApp.log.requests).toContain('/');
    expect(browser.webWhatsApp.log.requests.filter((path) => path.includes('passkey'))).toEqual([]);
    // The card names the service that asks.
    expect(await page.locator('#svc-passkey-host').textContent()).toBe(new URL(service.api).host);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, '60-passkey-card-done.png') });

    // From the extension's background worker (not the page, whose CSP allows only itself), with the token.
    const [challengeCall, assertionCall, ...more] = service.calls();
    expect(more).toEqual([]);
    expect(challengeCall).toMatchObject({ method: 'GET', path: `/api/chat/passkey/${service.workspaceId}/challenge` });
    expect(challengeCall!.headers['x-passkey-token']).toBe(service.token);
    expect(challengeCall!.headers.origin).toMatch(/^chrome-extension:\/\/[a-p]{32}$/);
    expect(challengeCall!.headers.cookie).toBeUndefined();
    expect(assertionCall).toMatchObject({ method: 'POST', path: `/api/chat/passkey/${service.workspaceId}/assertion` });
    expect(assertionCall!.headers['x-passkey-token']).toBe(service.token);
    expect(assertionCall!.headers['content-type']).toBe('application/json');

    // PublicKeyCredential.toJSON() of an assertion by the passkey.
    const credential = JSON.parse(assertionCall!.body) as {
      id: string;
      rawId: string;
      type: string;
      response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string | null };
    };
    expect(credential).toMatchObject({ id: passkey.credentialId.toString('base64url'), rawId: passkey.credentialId.toString('base64url'), type: 'public-key' });
    for (const field of [credential.rawId, credential.response.clientDataJSON, credential.response.authenticatorData, credential.response.signature]) {
      expect(field).toMatch(/^[A-Za-z0-9_-]+$/); // unpadded base64url
    }
    expect(credential.response.userHandle).toBe(passkey.userHandle.toString('base64url'));
    const clientDataJSON = Buffer.from(credential.response.clientDataJSON, 'base64url');
    const clientData = JSON.parse(clientDataJSON.toString('utf8')) as { type: string; challenge: string; origin: string; crossOrigin?: boolean };
    expect(clientData).toMatchObject({ type: 'webauthn.get', challenge: service.challenge, origin: 'https://web.whatsapp.com' });
    expect(clientData.crossOrigin ?? false).toBe(false);
    const authenticatorData = Buffer.from(credential.response.authenticatorData, 'base64url');
    expect(authenticatorData.subarray(0, 32)).toEqual(sha256('whatsapp.com'));
    const flags = authenticatorData[32]!;
    expect(flags & 0x01).toBe(0x01); // user present
    expect(flags & 0x04).toBe(0x04); // user verified
    const signed = Buffer.concat([authenticatorData, sha256(clientDataJSON)]);
    expect(verify('sha256', signed, passkey.publicKey, Buffer.from(credential.response.signature, 'base64url'))).toBe(true);

    expect(pageErrors).toEqual([]);
  });

  it("shows the service's error text when the link expired", async () => {
    service = await new FakePasskeyService().start();
    service.failWith = { status: 401, error: 'passkey link expired: open WhatsApp Web from the Console again' };
    const { page } = browser;

    const status = await openCeremonyLink(page, service.link());
    expect(status).toBe('Passkey link expired: open WhatsApp Web from the Console again.');
    expect(await ceremonyStatus(page)).toMatchObject({ kind: 'error' });
    expect(await page.locator('#svc-passkey-continue').isDisabled()).toBe(true);
    expect(page.url()).toBe('https://web.whatsapp.com/');
    expect(service.calls().map((call) => call.method)).toEqual(['GET']);
  });

  it('shows what the service says about the assertion', async () => {
    service = await new FakePasskeyService().start();
    const { page } = browser;
    await page.goto(service.link(), { waitUntil: 'domcontentloaded' });
    const button = page.locator('#svc-passkey-continue');
    // The challenge arrives, then the service refuses the assertion.
    for (let i = 0; i < 200 && !(await button.isEnabled()); i++) await new Promise((done) => setTimeout(done, 50));
    service.failWith = { status: 400, error: 'assertion challenge does not match' };
    await button.click();
    for (let i = 0; i < 200 && (await ceremonyStatus(page)).kind !== 'error'; i++) await new Promise((done) => setTimeout(done, 50));
    expect(await ceremonyStatus(page)).toEqual({ kind: 'error', text: 'Assertion challenge does not match.' });
  });

  it('ignores a click the page makes up, and says so when the passkey request is cancelled', async () => {
    service = await new FakePasskeyService().start();
    service.timeoutMs = 2_000;
    const { page, cdp, authenticatorId, passkey } = browser;
    await page.goto(service.link(), { waitUntil: 'domcontentloaded' });
    const button = page.locator('#svc-passkey-continue');
    for (let i = 0; i < 200 && !(await button.isEnabled()); i++) await new Promise((done) => setTimeout(done, 50));
    // The page's scripts can reach the open shadow root, but their click is not the person's.
    await button.evaluate((element) => (element as unknown as { click: () => void }).click());
    await new Promise((done) => setTimeout(done, 300));
    expect(await button.isEnabled()).toBe(true);
    expect(service.calls().map((call) => call.method)).toEqual(['GET']);

    // No passkey for whatsapp.com in the authenticator: the browser gives up (NotAllowedError).
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    try {
      await button.click();
      for (let i = 0; i < 200 && (await ceremonyStatus(page)).kind !== 'error'; i++) await new Promise((done) => setTimeout(done, 50));
      expect(await ceremonyStatus(page)).toEqual({ kind: 'error', text: 'The passkey request was cancelled or timed out. Try again with Continue.' });
      expect(await button.isEnabled()).toBe(true); // the link still holds
      expect(service.calls().map((call) => call.method)).toEqual(['GET']);
    } finally {
      await addCredential(browser, passkey);
    }
  });

  it('takes a link opened in a tab that already shows WhatsApp Web', async () => {
    service = await new FakePasskeyService().start();
    const { page } = browser;
    await page.goto('https://web.whatsapp.com/', { waitUntil: 'domcontentloaded' });
    expect(await page.locator('svc-passkey-card').count()).toBe(0);
    const loads = browser.webWhatsApp.log.requests.length;
    // Only the fragment changes: no new document, the content script sees a hashchange.
    expect(await openCeremonyLink(page, service.link())).toBe(CEREMONY_DONE);
    expect(page.url()).toBe('https://web.whatsapp.com/');
    expect(service.calls().map((call) => call.method)).toEqual(['GET', 'POST']);
    expect(browser.webWhatsApp.log.requests.length).toBe(loads);
  });

  it('says so when the link cannot be read', async () => {
    const { page } = browser;
    const status = await openCeremonyLink(page, 'https://web.whatsapp.com/#svc-passkey=bm90LWpzb24');
    expect(status).toMatch(/^This passkey link cannot be read: .+\. Open WhatsApp Web from the Console again\.$/);
    expect(page.url()).toBe('https://web.whatsapp.com/');
  });
});
