// A desktop browser for the passkey ceremony (docs/passkey.md): Debian's Chromium (never a
// downloaded one) with the repository's extension (extensions/passkey/) loaded unpacked, a
// loopback HTTPS stand-in for https://web.whatsapp.com the browser trusts, and a virtual WebAuthn
// authenticator (DevTools protocol) holding one passkey for rpId whatsapp.com, whose public key a
// test registers with the simulator.
//
// What made it work headless with Chromium 156 and playwright-core 1.65 (measured here: the launch
// with the extension takes about 0.7 s, a whole ceremony about 0.3 s):
// - `headless: true` is enough: Playwright passes plain `--headless`, which since Chromium 132 is
//   the new headless mode (the old one, which had no extensions, is a separate binary not used
//   here); no `--headless=new`, no `channel`.
// - `--disable-extensions-except=<dir>` + `--load-extension=<dir>` load the folder unpacked
//   (Chromium, unlike branded Chrome since 137, still honours `--load-extension`). Playwright's
//   default `--disable-extensions` did not stop it in this Chromium; `ignoreDefaultArgs` drops it
//   anyway, for a build that would honour it.
// - The certificate: `--ignore-certificate-errors-spki-list=<base64 SHA-256 of its SPKI>` makes
//   the certificate verifier accept it as valid (honoured only with a user data dir, which a
//   persistent context has): DevTools reports the page `secure`, like the real one. Playwright's
//   `ignoreHTTPSErrors` instead leaves it `insecure-broken` (`ran-content-with-cert-error`), on
//   which Chromium refuses WebAuthn to real authenticators (it let the virtual one through anyway
//   in a check here, so that alone would have proven nothing).
// - `--host-resolver-rules=MAP web.whatsapp.com 127.0.0.1:<port>` sends the host to the stand-in.
// - The virtual authenticator (DevTools `WebAuthn` domain, on a CDP session of the tab) belongs to
//   the tab, not to a document: added before the tab navigates, it serves the MAIN-world content
//   script's navigator.credentials.get on web.whatsapp.com (added after the navigation works too,
//   so a tab the Console opens can be equipped once it exists).
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
// Not browser-support.ts: that module loads the whole service.
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

export const EXTENSION_DIR = resolve(import.meta.dirname, '../../extensions/passkey');
export const WEB_WHATSAPP = 'https://web.whatsapp.com';
export const PASSKEY_RP_ID = 'whatsapp.com';

/** The status line once the ceremony settled, as the card says it. */
export const CEREMONY_DONE = 'Done. Compare the code on your phone with the one in the Console, then confirm there.';

/** A passkey the virtual authenticator holds (a resident ES256 credential for whatsapp.com). */
export interface TestPasskey {
  credentialId: Buffer;
  publicKey: KeyObject;
  privateKey: KeyObject;
  userHandle: Buffer;
}

/** What the stand-in for web.whatsapp.com saw. */
export interface WebWhatsAppLog {
  /** Paths (with queries) requested, in order. A fragment never reaches a server; this shows it did not. */
  requests: string[];
}

export interface WebWhatsApp {
  /** `https://web.whatsapp.com` (resolved to the stand-in by the browser's host rules). */
  url: string;
  /** The stand-in's real port on 127.0.0.1. */
  port: number;
  log: WebWhatsAppLog;
  close: () => Promise<void>;
}

export interface PasskeyBrowser {
  context: BrowserContext;
  page: Page;
  /** The CDP session that owns the virtual authenticator (on `page`). */
  cdp: CDPSession;
  authenticatorId: string;
  webWhatsApp: WebWhatsApp;
  passkey: TestPasskey;
  /** Closes the browser, the stand-in and deletes the profile. */
  close: () => Promise<void>;
}

/** A test-only certificate for web.whatsapp.com. */
export interface TestCertificate {
  key: string;
  cert: string;
  /** base64 SHA-256 of the certificate's SubjectPublicKeyInfo, for `--ignore-certificate-errors-spki-list`. */
  spki: string;
}

let certificate: TestCertificate | undefined;

/**
 * A throw-away self-signed certificate for DNS:web.whatsapp.com, made with openssl once per test
 * process (about 20 ms) and never written anywhere but a temporary folder deleted at once. Only a
 * browser started with its SPKI hash in `--ignore-certificate-errors-spki-list` accepts it.
 */
export function webWhatsAppCertificate(): TestCertificate {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'web-whatsapp-cert-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    // prettier-ignore
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '30',
      '-subj', '/CN=web.whatsapp.com (test only)',
      '-addext', 'subjectAltName=DNS:web.whatsapp.com',
      '-addext', 'basicConstraints=critical,CA:FALSE',
      '-addext', 'keyUsage=critical,digitalSignature',
      '-addext', 'extendedKeyUsage=serverAuth',
      '-keyout', keyFile, '-out', certFile,
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    const cert = readFileSync(certFile, 'utf8');
    const spkiDer = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
    certificate = { key: readFileSync(keyFile, 'utf8'), cert, spki: createHash('sha256').update(spkiDer).digest('base64') };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** WhatsApp Web's policy as far as it matters here: the page may connect to itself only. */
const WEB_WHATSAPP_CSP = "default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>WhatsApp</title>
    <script src="/app.js"></script>
  </head>
  <body>
    <div id="app">WhatsApp Web (a test stand-in)</div>
  </body>
</html>
`;

/**
 * The page's own first script, as a curious page would be: it notes what location.hash held when
 * it ran (the extension must have removed the link by then), and tries to get the extension's
 * channel (asking for it and listening for it, and for window messages).
 */
const APP_JS = `
(() => {
  const root = document.documentElement;
  root.dataset.firstHash = location.hash;
  root.dataset.spied = '';
  const spied = (what) => { root.dataset.spied += what + ';'; };
  document.addEventListener('svc-passkey:channel', (event) => spied('channel:' + event.detail));
  window.addEventListener('message', (event) => spied('message'));
  document.dispatchEvent(new CustomEvent('svc-passkey:hello'));
})();
`;

/** The stand-in for https://web.whatsapp.com on a loopback port. */
export async function startWebWhatsApp(): Promise<WebWhatsApp> {
  const { key, cert } = webWhatsAppCertificate();
  const log: WebWhatsAppLog = { requests: [] };
  const server: Server = createServer({ key, cert }, (req, res) => {
    const path = new URL(req.url ?? '/', WEB_WHATSAPP).pathname;
    log.requests.push(req.url ?? '/');
    const headers = { 'Content-Security-Policy': WEB_WHATSAPP_CSP, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
    if (path === '/app.js') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' }).end(APP_JS);
    } else if (path === '/' || path === '/index.html') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
    } else {
      res.writeHead(404, headers).end();
    }
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  return {
    url: WEB_WHATSAPP,
    port: (server.address() as AddressInfo).port,
    log,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A new passkey: an ES256 (P-256) key pair, a random 16-byte credential id and user handle. */
export function createTestPasskey(): TestPasskey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { credentialId: randomBytes(16), publicKey, privateKey, userHandle: randomBytes(16) };
}

/**
 * A virtual authenticator on `page`'s tab (a platform authenticator that verifies the user and
 * simulates their touch) holding `passkey` as a resident credential for whatsapp.com. Add it
 * before the page navigates to web.whatsapp.com (it then serves every page the tab shows).
 */
export async function addPasskeyAuthenticator(page: Page, passkey: TestPasskey): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await addCredential({ cdp, authenticatorId }, passkey);
  return { cdp, authenticatorId };
}

/** Puts `passkey` (again) into the virtual authenticator. */
export async function addCredential(to: { cdp: CDPSession; authenticatorId: string }, passkey: TestPasskey): Promise<void> {
  await to.cdp.send('WebAuthn.addCredential', {
    authenticatorId: to.authenticatorId,
    credential: {
      credentialId: passkey.credentialId.toString('base64'),
      isResidentCredential: true,
      rpId: PASSKEY_RP_ID,
      privateKey: passkey.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
      userHandle: passkey.userHandle.toString('base64'),
      signCount: 0,
    },
  });
}

/**
 * Chromium with the extension, the web.whatsapp.com stand-in and a passkey (a new one unless
 * `options.passkey` is given). `page` is the persistent context's first tab, on about:blank, with
 * the authenticator already attached: navigate it with openCeremonyLink.
 */
export async function openPasskeyBrowser(options: { passkey?: TestPasskey; extensionDir?: string } = {}): Promise<PasskeyBrowser> {
  const extensionDir = options.extensionDir ?? EXTENSION_DIR;
  const passkey = options.passkey ?? createTestPasskey();
  const webWhatsApp = await startWebWhatsApp();
  const profile = mkdtempSync(join(tmpdir(), 'passkey-browser-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      // Playwright's default --disable-extensions would switch the extension off.
      ignoreDefaultArgs: ['--disable-extensions'],
      viewport: { width: 1280, height: 860 },
      args: [
        `--disable-extensions-except=${extensionDir}`,
        `--load-extension=${extensionDir}`,
        `--host-resolver-rules=MAP web.whatsapp.com 127.0.0.1:${webWhatsApp.port}`,
        `--ignore-certificate-errors-spki-list=${webWhatsAppCertificate().spki}`,
        ...CHROMIUM_ARGS,
      ],
    });
    context.setDefaultTimeout(15_000);
    // The extension's background worker: its start shows the extension loaded.
    if (!context.serviceWorkers().some((worker) => worker.url().startsWith('chrome-extension://'))) {
      await context.waitForEvent('serviceworker', { predicate: (worker) => worker.url().startsWith('chrome-extension://'), timeout: 10_000 });
    }
    const page = context.pages()[0] ?? (await context.newPage());
    const { cdp, authenticatorId } = await addPasskeyAuthenticator(page, passkey);
    const opened = context;
    return {
      context: opened,
      page,
      cdp,
      authenticatorId,
      webWhatsApp,
      passkey,
      close: async () => {
        await opened.close().catch(() => undefined);
        await webWhatsApp.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context?.close().catch(() => undefined);
    await webWhatsApp.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/** The card's status line and its kind (`info` while under way, `done`, `error`). */
export async function ceremonyStatus(page: Page): Promise<{ text: string; kind: string }> {
  const status = page.locator('#svc-passkey-status');
  return { text: ((await status.textContent()) ?? '').trim(), kind: (await status.getAttribute('data-kind')) ?? '' };
}

async function settle(page: Page, until: (status: { text: string; kind: string }) => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await until(await ceremonyStatus(page))) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the card says: ${(await ceremonyStatus(page)).text}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/**
 * On a page that shows a ceremony link: waits for the card, clicks **Continue with passkey** once
 * the service's challenge arrived (the locator pierces the card's open shadow root) and returns
 * the status text once it settles (CEREMONY_DONE, or an error). When fetching the challenge
 * already failed, returns that error without clicking. For a tab the Console opened itself (give
 * it the passkey first with addPasskeyAuthenticator).
 */
export async function completeCeremony(page: Page, timeoutMs = 20_000): Promise<string> {
  const button = page.locator('#svc-passkey-continue');
  await button.waitFor({ state: 'attached', timeout: timeoutMs });
  await settle(page, async (status) => status.kind === 'error' || (await button.isEnabled()), 'the passkey challenge', timeoutMs);
  if ((await ceremonyStatus(page)).kind === 'error') return (await ceremonyStatus(page)).text;
  await button.click();
  await settle(page, async (status) => status.kind === 'done' || status.kind === 'error', 'the passkey ceremony', timeoutMs);
  return (await ceremonyStatus(page)).text;
}

/** Opens a ceremony link (`https://web.whatsapp.com/#svc-passkey=…`) in `page`, then completeCeremony. */
export async function openCeremonyLink(page: Page, url: string, timeoutMs = 20_000): Promise<string> {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return completeCeremony(page, timeoutMs);
}

/** A ceremony link as the service builds it (docs/passkey.md), for tests with a stand-in service. */
export function ceremonyLink(link: { api: string; workspace_id: string; token: string }): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, ...link })).toString('base64url');
  return `${WEB_WHATSAPP}/#svc-passkey=${payload}`;
}
