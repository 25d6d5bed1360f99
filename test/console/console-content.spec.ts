import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestUser } from '../support/factories.js';
import { collectPageErrors, cookieOf, launchChromium, screenshot, signedInContext, startConsoleStack, type ConsoleStack, until } from './browser-support.js';

/**
 * The Console's content pages against the real service: templates, the automation form,
 * knowledge articles with their search, keyboard-only use of a dialog, and the content pages at
 * phone width. One browser; one page for the owner.
 */
jest.setTimeout(30_000);

describe('the Console in a browser: templates, automations, knowledge', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let owner: TestUser;
  let workspaceId: string;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack(), launchChromium()]);
    const { t } = stack;
    owner = await t.factories.user({ name: 'Olivia Owner', email: 'olivia@content.test' });
    const agent = await t.factories.user({ name: 'Sam Agent', email: 'sam@content.test' });
    const ws = await t.factories.workspace({ name: 'Content shop' });
    workspaceId = ws.id;
    await t.factories.member(ws.id, owner.id, 'owner');
    await t.factories.member(ws.id, agent.id, 'agent');
    context = await signedInContext(browser, stack, owner.id);
    page = await context.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('creates, refuses a duplicate readably, edits and deletes a template', async () => {
    await page.goto(`${stack.base}/templates`);
    await page.getByText('No templates yet.').waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    let dialog = page.getByRole('dialog', { name: 'New template' });
    await dialog.getByLabel('Name').fill('welcome');
    await dialog.getByLabel('Text').fill('Hello {{1}}, welcome to {{2}}!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.locator('.card', { hasText: 'welcome' });
    await card.getByText('Hello {{1}}, welcome to {{2}}!').waitFor();

    await page.getByRole('button', { name: 'New template' }).click();
    dialog = page.getByRole('dialog', { name: 'New template' });
    await dialog.getByLabel('Name').fill('welcome');
    await dialog.getByLabel('Text').fill('Hi {{1}}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A template with this name and language already exists.' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await card.getByRole('button', { name: 'Edit welcome' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit template' });
    await dialog.getByLabel('Text').fill('Hello {{1}}, welcome to {{2}}. Reply STOP to opt out.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Reply STOP to opt out.').waitFor();
    await screenshot(page, '20-templates');
  });

  it('builds an automation from conditions and actions; a bad pattern is refused readably', async () => {
    await page.goto(`${stack.base}/automations`);
    await page.getByText('No automations yet.').waitFor();
    await page.getByRole('button', { name: 'New automation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New automation' });
    await dialog.getByLabel('Name').fill('Greet and route');
    await dialog.getByLabel('When').selectOption('conversation.created');
    await dialog.getByLabel('Match').selectOption('any');
    const first = dialog.getByRole('group', { name: 'Condition 1' });
    await first.getByLabel('Field').selectOption('content');
    await first.getByLabel('Operator').selectOption('matches');
    await first.getByLabel('Value').fill('(hello');
    await dialog.getByRole('button', { name: 'Add a condition' }).click();
    const second = dialog.getByRole('group', { name: 'Condition 2' });
    await second.getByLabel('Field').selectOption('is_group');
    await second.getByLabel('Value').selectOption('false');

    const reply = dialog.getByRole('group', { name: 'Action 1' });
    await reply.getByLabel('Action', { exact: true }).selectOption('reply_template');
    await reply.getByLabel('Template').selectOption({ label: 'welcome (en)' });
    await reply.getByLabel(/Parameters/).fill('friend\nContent Shop');
    await dialog.getByRole('button', { name: 'Add an action' }).click();
    const assign = dialog.getByRole('group', { name: 'Action 2' });
    await assign.getByLabel('Action', { exact: true }).selectOption('assign');
    await assign.getByLabel('Member').selectOption({ label: 'Sam Agent' });
    await dialog.getByRole('button', { name: 'Add an action' }).click();
    await dialog.getByRole('group', { name: 'Action 3' }).getByLabel('Action', { exact: true }).selectOption('mark_read');

    await screenshot(page, '21-automation-form');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Invalid regular expression' }).waitFor();
    await first.getByLabel('Value').fill('^(hello|hi)\\b');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.locator('.card', { hasText: 'Greet and route' });
    await card.getByText('on', { exact: true }).waitFor();
    const saved = await stack.t
      .http()
      .get('/api/automations')
      .set('Cookie', await cookieOf(context))
      .set('X-Tenant-ID', workspaceId);
    expect(saved.body).toHaveLength(1);
    expect(saved.body[0]).toMatchObject({
      name: 'Greet and route',
      trigger: 'conversation.created',
      match: 'any',
      conditions: [
        { field: 'content', op: 'matches', value: '^(hello|hi)\\b' },
        { field: 'is_group', op: 'equals', value: false },
      ],
      actions: [{ type: 'reply_template', parameters: ['friend', 'Content Shop'] }, { type: 'assign' }, { type: 'mark_read' }],
    });
    await screenshot(page, '21-automations');

    await card.getByRole('button', { name: 'Turn off' }).click();
    await card.getByText('off', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit automation' });
    await expect(edit.getByRole('group', { name: 'Action 2' }).getByLabel('Member').inputValue()).resolves.not.toBe('');
    await edit.getByLabel('Name').fill('Greet new chats');
    await edit.getByRole('button', { name: 'Remove action 3' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.locator('.card', { hasText: 'Greet new chats' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this automation?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No automations yet.').waitFor();
  });

  it('writes knowledge articles, finds them by search, edits and deletes them', async () => {
    await page.goto(`${stack.base}/knowledge`);
    await page.getByText('No articles yet.').waitFor();
    for (const [title, body] of [
      ['Refund policy', 'You can ask for a refund within 30 days of delivery.'],
      ['Opening hours', 'We answer from 9:00 to 17:00, Monday to Friday.'],
    ]) {
      await page.getByRole('button', { name: 'New article' }).click();
      const dialog = page.getByRole('dialog', { name: 'New article' });
      await dialog.getByLabel('Title').fill(title!);
      await dialog.getByLabel('Text').fill(body!);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    await page.locator('.card').nth(1).waitFor();
    await screenshot(page, '22-knowledge');

    await page.getByLabel('Search the articles').fill('refunds');
    await page.locator('.card').nth(1).waitFor({ state: 'detached' });
    await expect(page.locator('.card h2').allTextContents()).resolves.toEqual(['Refund policy']);
    await page.getByLabel('Search the articles').fill('parking');
    await page.getByText('No article matches “parking”.').waitFor();
    await page.getByLabel('Search the articles').fill('');
    await page.locator('.card').nth(1).waitFor();

    await page.getByRole('button', { name: 'Edit Opening hours' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit article' });
    await edit.getByLabel('Text').fill('We answer around the clock.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('We answer around the clock.').waitFor();
    await page.getByRole('button', { name: 'Delete Opening hours' }).click();
    await page.getByRole('dialog', { name: 'Delete this article?' }).getByRole('button', { name: 'Delete' }).click();
    await page.locator('.card', { hasText: 'Opening hours' }).waitFor({ state: 'detached' });
  });

  it('works with the keyboard alone: a dialog opened, filled and saved, and focus back on its button', async () => {
    await page.goto(`${stack.base}/knowledge`);
    await page.getByRole('heading', { name: 'Knowledge' }).waitFor();
    const focused = (): Promise<string> =>
      page.evaluate<string>("(document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent || '').trim()");
    // A fresh page: the first Tab reaches "Skip to content", which moves on to the page itself.
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('New article');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New article' });
    await dialog.waitFor();
    await page.keyboard.type('Shipping times');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Parcels leave within two working days.');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Cancel');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Save');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.card', { hasText: 'Shipping times' }).getByText('Parcels leave within two working days.').waitFor();
    await expect(focused()).resolves.toBe('New article');

    // Escape closes a dialog without saving, and focus returns too.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The dialog leaves the page a moment before its cleanup hands focus back (Preact runs it
    // after the removal): wait for that, then assert where focus is.
    await until('focus back on the opener', async () => (await focused()) === 'New article', 2000).catch(() => undefined);
    await expect(focused()).resolves.toBe('New article');
  });

  it('fits a phone screen: the content pages and the automation form', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await context.storageState() });
    phone.setDefaultTimeout(15_000);
    const small = await phone.newPage();
    for (const [path, ready, name] of [
      ['/templates', 'welcome', '30-phone-templates'],
      ['/knowledge', 'Shipping times', '31-phone-knowledge'],
      ['/automations', 'No automations yet.', '32-phone-automations'],
    ] as const) {
      await small.goto(`${stack.base}${path}`);
      await small.getByText(ready).first().waitFor();
      await screenshot(small, name);
      expect({ path, width: await small.evaluate<number>('document.documentElement.scrollWidth') }).toEqual({ path, width: 390 });
    }
    await small.getByRole('button', { name: 'New automation' }).click();
    const dialog = small.getByRole('dialog', { name: 'New automation' });
    await dialog.getByRole('button', { name: 'Add an action' }).click();
    await dialog.getByRole('group', { name: 'Action 2' }).getByLabel('Action', { exact: true }).selectOption('reply_template');
    await screenshot(small, '33-phone-automation-form');
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await phone.close();
    expect(errors).toEqual([]);
  });
});
