// Browser tests of the Console: the real service (real Baileys driver against the loopback
// WhatsApp simulator, real SMTP to a loopback capture) on a loopback port, driven by Debian's
// Chromium through playwright-core. No browser is ever downloaded.
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createE2eApp } from '../e2e/e2e-support.js';
import { SmtpCapture } from '../support/smtp-capture.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

const ROOT = resolve(import.meta.dirname, '../..');
export { CHROMIUM };
/** Screenshots of the main pages, for people to look at (kept out of git; the README links here). */
export const SCREENSHOTS = join(ROOT, 'test-artifacts/screenshots');

export interface ConsoleStack {
  t: TestApp;
  sim: WhatsAppSimulator;
  smtp: SmtpCapture;
  /** `http://127.0.0.1:<port>`: the service, which is also PUBLIC_URL (mailed links point here). */
  base: string;
  stop: () => Promise<void>;
}

/** A port nothing listens on right now (for a service whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/**
 * The whole service on a loopback port (`port`, or a free one), with the simulator and an SMTP
 * capture.
 */
export async function startConsoleStack(env: Record<string, string> = {}, port?: number): Promise<ConsoleStack> {
  if (!existsSync(join(ROOT, 'console/dist/index.html'))) throw new Error('console/dist is missing: the test run builds it in global-setup.mjs');
  const sim = await WhatsAppSimulator.start();
  const smtp = await new SmtpCapture().start();
  port ??= await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createE2eApp(sim, {
    env: { PUBLIC_URL: base, SMTP_URL: smtp.url, CONSOLE_DIR: join(ROOT, 'console/dist'), ...env },
  });
  await new Promise<void>((done, fail) => {
    const server = t.app.getHttpServer();
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done());
  });
  return {
    t,
    sim,
    smtp,
    base,
    stop: async () => {
      await t.close();
      await sim.stop();
      await smtp.stop();
    },
  };
}

export function launchChromium(): Promise<Browser> {
  // launch() gives every run a fresh temporary profile (user-data dir) and deletes it on close.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The first link in a mail that contains `path`, e.g. `/verify-email`. */
export function linkIn(text: string, path: string): string {
  const link = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!link) throw new Error(`no ${path} link in:\n${text}`);
  return link;
}

/** Uncaught errors of the page's scripts (a test ends by expecting none). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * Polls `check` (every 50 ms, at most `timeoutMs`) until it answers true. For conditions a locator
 * cannot wait for: the Console's Content Security Policy forbids the string evaluation that
 * page.waitForFunction relies on, and the tests keep that policy on.
 */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The browser's cookies as a `Cookie` header, to call the API as the signed-in person. */
export async function cookieOf(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** A desktop-sized browser context signed in as `userId` (a session made by the factories). */
export async function signedInContext(browser: Browser, stack: ConsoleStack, userId: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  context.setDefaultTimeout(15_000);
  const [name, value] = (await stack.t.factories.sessionCookie(userId)).split('=') as [string, string];
  await context.addCookies([{ name, value, url: stack.base }]);
  return context;
}
