// What the Console's message-kind tests share: the whole service with the REAL Baileys driver,
// a number linked by the simulator's phone (so contacts' messages of every kind go through the
// driver, the media download and the inbox as in production), and a browser signed in as the
// workspace's owner.
import { mkdtemp, rm } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { link, messageWhen, type E2eWorkspace, type Json } from '../e2e/e2e-support.js';
import { collectPageErrors, launchChromium, SCREENSHOTS, signedInContext, startConsoleStack, type ConsoleStack } from './browser-support.js';

export type { Json };

export interface KindsConsole {
  stack: ConsoleStack;
  ws: E2eWorkspace;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page's scripts (a test ends by expecting none). */
  errors: string[];
  /** Our number's jid, as contacts' phones name the chat with us. */
  own: string;
  /** The API message of `chatMessageId`, once it is stored and `check` holds. */
  stored: (chatMessageId: string, check?: (m: Json) => boolean) => Promise<Json>;
  close: () => Promise<void>;
}

/** The service (with its own media directory), the simulator, `phone` linked, a signed-in page. */
export async function startKindsConsole(phone: string): Promise<KindsConsole> {
  const mediaDir = await mkdtemp(join(tmpdir(), 'console-kinds-'));
  const [stack, browser] = await Promise.all([startConsoleStack({ MEDIA_DIR: mediaDir }), launchChromium()]);
  const { workspace, owner, key } = await stack.t.factories.workspaceWithOwner();
  const ws: E2eWorkspace = { workspaceId: workspace.id, owner: { cookie: owner.cookie, workspaceId: workspace.id }, key };
  await link(stack.t, stack.sim, ws, phone);
  await stack.sim.waitForLive(phone);
  const context = await signedInContext(browser, stack, owner.id);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  return {
    stack,
    ws,
    browser,
    context,
    page,
    errors,
    own: `${phone}@s.whatsapp.net`,
    stored: (chatMessageId, check) => messageWhen(stack.t, ws, chatMessageId, check),
    close: async () => {
      await browser.close();
      await stack.stop();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

/** The bubble of a message (by our id). */
export const bubbleOf = (page: Page, messageId: string): Locator => page.locator(`li.bubble[data-message="${messageId}"]`);

/** A picture of one bubble, for people to look at: `test-artifacts/screenshots/<name>.png`. */
export async function bubbleShot(bubble: Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await bubble.scrollIntoViewIfNeeded();
  await bubble.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** A computed style property of an element (the tests are compiled without the DOM types). */
export function styleOf(locator: Locator, property: string): Promise<string> {
  return locator.evaluate((element, name) => {
    const view = (element as unknown as { ownerDocument: { defaultView: { getComputedStyle: (e: unknown) => Record<string, string> } } }).ownerDocument
      .defaultView;
    return view.getComputedStyle(element)[name]!;
  }, property);
}
