import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { collectPageErrors, cookieOf, launchChromium, screenshot, signedInContext, startConsoleStack, type ConsoleStack, until } from './browser-support.js';

/**
 * The Search page in a browser against the real service: the inbox header's search box opens it,
 * results come grouped by kind with the matched words marked, the kind tabs narrow them, typing
 * searches as you go (the last word as a prefix), and a hit opens its conversation.
 */
jest.setTimeout(60_000);

describe('the Console Search page', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const conversations: Record<string, string> = {};

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack(), launchChromium()]);
    const { t } = stack;
    const owner = await t.factories.user({ name: 'Olivia Owner', email: 'olivia@search.test' });
    const ws = await t.factories.workspace({ name: 'Search shop' });
    await t.factories.member(ws.id, owner.id, 'owner');
    const inbox = new InboxFactories(t.app);
    const greta = randomPhone();
    const contact = { phone: greta, name: 'Greta Lindqvist' };
    conversations.greta = (await inbox.message(ws.id, { phone: greta, contact, content: 'Where is my refund for order 4711?' })).conversation.id;
    await inbox.message(ws.id, { phone: greta, contact, content: 'Any news on the parcel?' });
    const omar = randomPhone();
    conversations.omar = (
      await inbox.message(ws.id, { phone: omar, contact: { phone: omar, name: 'Omar Haddad' }, content: 'The REFUND arrived, thanks!' })
    ).conversation.id;

    context = await signedInContext(browser, stack, owner.id);
    page = await context.newPage();
    errors = collectPageErrors(page);
    const note = await t
      .http()
      .post(`/api/conversations/${conversations.greta}/notes`)
      .set('Cookie', await cookieOf(context))
      .set('X-Tenant-ID', ws.id)
      .set('Content-Type', 'application/json')
      .send({ body: 'Refund approved by finance, tell her tomorrow' });
    expect(note.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const marks = async (): Promise<string[]> => (await page.locator('.search-snippet mark').allTextContents()).map((m) => m.toLowerCase());
  const group = (title: string) => page.getByRole('region', { name: new RegExp(`^${title}`) });

  it('opens from the inbox header, groups the hits by kind and marks the words found', async () => {
    await page.goto(`${stack.base}/inbox`);
    const box = page.getByRole('search').getByLabel('Search messages, notes and contacts');
    await box.fill('refund');
    await box.press('Enter');
    await until('the Search page', async () => page.url().startsWith(`${stack.base}/search?q=refund`));
    await group('Messages').waitFor();
    expect(await group('Messages').getByRole('listitem').count()).toBe(2);
    expect(await group('Private notes').getByRole('listitem').count()).toBe(1);
    await group('Private notes').getByText('Private note', { exact: true }).waitFor();
    expect(await page.getByRole('region', { name: /^Contacts/ }).count()).toBe(0);
    expect(await marks()).toEqual(['refund', 'refund', 'refund']);
    await screenshot(page, '70-search-results');
  });

  it('narrows to one kind with the tabs', async () => {
    await page.getByRole('navigation', { name: 'What to search' }).getByRole('link', { name: 'Notes' }).click();
    await until('the notes tab', async () => page.url().includes('type=notes'));
    await until('only notes', async () => (await page.locator('.search-results li').count()) === 1 && (await group('Private notes').count()) === 1);
    expect(await group('Messages').count()).toBe(0);
    await page.getByRole('navigation', { name: 'What to search' }).getByRole('link', { name: 'All' }).click();
    await group('Messages').waitFor();
  });

  it('searches as you type, the last word as the start of a word, contacts by name', async () => {
    const field = page.getByRole('main').getByLabel('Search messages, notes and contacts');
    await field.fill('lindq');
    await group('Contacts').waitFor();
    await group('Contacts').getByText('Greta Lindqvist').first().waitFor();
    expect(await marks()).toEqual(['lindqvist']);
    expect(page.url()).toContain('q=lindq');
    await field.fill('nothing like this');
    await page.getByText('Nothing matches “nothing like this”.').waitFor();
  });

  it('opens the conversation of a hit', async () => {
    await page.goto(`${stack.base}/search?q=${encodeURIComponent('order 4711')}`);
    const hit = group('Messages').getByRole('link', { name: /Greta Lindqvist/ });
    await hit.waitFor();
    await hit.click();
    await until('the conversation', async () => page.url() === `${stack.base}/inbox/${conversations.greta}`);
    await page.locator('.bubble-text', { hasText: 'Any news on the parcel?' }).waitFor();
    await screenshot(page, '71-search-opened-conversation');
    expect(errors).toEqual([]);
  });
});
