import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { call } from '../inbox/inbox-http.js';
import { link, newWorkspace, type E2eWorkspace } from '../e2e/e2e-support.js';
import type { TestUser } from '../support/factories.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { collectPageErrors, launchChromium, screenshot, signedInContext, startConsoleStack, type ConsoleStack } from './browser-support.js';

/**
 * The Reports page against the real service on the simulator: conversations opened over the last
 * days (real ingest), answered by an agent through the real scan channel, closed by PATCH; the
 * owner reads the tiles, the charts and the agents' table and moves the range; an agent has no
 * Reports link and is told the page is not theirs.
 */
jest.setTimeout(60_000);

const PHONE = '4915111100070';
const CUSTOMERS = ['4915111100071', '4915111100072', '4915111100073', '4915111100074'];
const DAY_MS = 86_400_000;

describe('the Console in a browser: reports', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let ws: E2eWorkspace;
  let agent: TestUser & { cookie: string };
  let ownerId: string;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startConsoleStack(), launchChromium()]);
    const { t } = stack;
    ws = await newWorkspace(t);
    ownerId = (await t.dataSource.query(`SELECT user_id FROM workspace_members WHERE workspace_id = $1`, [ws.workspaceId]))[0].user_id as string;
    await t.dataSource.query(`UPDATE users SET name = 'Olivia Owner' WHERE id = $1`, [ownerId]);
    const user = await t.factories.user({ name: 'Sam Agent' });
    await t.factories.member(ws.workspaceId, user.id, 'agent');
    agent = { ...user, cookie: await t.factories.sessionCookie(user.id) };
    await link(t, stack.sim, ws, PHONE);

    // Customers who wrote over the last days (the channel's ingest, with their messages' times);
    // the agent answers three of them from the Console's API and closes two.
    const inbox = new InboxFactories(t.app);
    const agentCaller = { cookie: agent.cookie, workspaceId: ws.workspaceId };
    for (const [i, phone] of CUSTOMERS.entries()) {
      const { conversation } = await inbox.message(ws.workspaceId, {
        phone,
        senderName: `Customer ${i + 1}`,
        timestamp: new Date(Date.now() - (i * DAY_MS + 900_000)),
      });
      if (i === 3) continue;
      await call(t, agentCaller, 'post', `/api/conversations/${conversation.id}/messages`, { body: `Hello customer ${i + 1}, happy to help.` }).expect(201);
      if (i < 2) await call(t, agentCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'closed' }).expect(200);
    }

    // The owner looks at the figures in Berlin time.
    const signedIn = await signedInContext(browser, stack, ownerId);
    const cookies = await signedIn.cookies();
    await signedIn.close();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Berlin' });
    context.setDefaultTimeout(15_000);
    await context.addCookies(cookies);
    page = await context.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the last 14 days: openings and closings, first-response and resolution times, the agents', async () => {
    await page.goto(`${stack.base}/`);
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.waitForURL(/\/reports$/);
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.locator('[data-report-range]', { hasText: 'Europe/Berlin' }).waitFor();
    await expect(page.getByLabel('Range', { exact: true }).inputValue()).resolves.toBe('14');

    const tile = (title: string) => page.locator(`[data-tile="${title}"] .tile-value`);
    await expect(tile('Opened').textContent()).resolves.toBe('4');
    await expect(tile('Closed').textContent()).resolves.toBe('2');
    // First responses 15 min, 1 day 15 min and 2 days 15 min after the customers wrote: the median is the middle one.
    await expect(tile('First response').textContent()).resolves.toBe('1.0 days');
    await page.locator('[data-tile="First response"]', { hasText: 'median of 3' }).waitFor();

    await page.getByRole('img', { name: 'Conversations opened and closed per day' }).waitFor();
    await page.getByRole('img', { name: 'Median first-response and resolution time per day' }).waitFor();

    const table = page.getByRole('table', { name: 'Agents' });
    const sam = table.getByRole('row', { name: /Sam Agent/ });
    await expect(sam.getByRole('cell').allTextContents()).resolves.toEqual(['2', '3', '1.0 days', expect.stringMatching(/min|days|h/)]);
    await expect(
      table
        .getByRole('row', { name: /Olivia Owner/ })
        .getByRole('cell')
        .allTextContents(),
    ).resolves.toEqual(['0', '0', '—', '—']);
    await screenshot(page, '70-reports');
    expect(errors).toEqual([]);
  });

  it('moves the range: a preset, then two dates of your own (kept in the address)', async () => {
    await page.getByLabel('Range', { exact: true }).selectOption('7');
    await page.waitForURL(/\/reports\?from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/);
    const url = new URL(page.url());
    expect((Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!)) / DAY_MS).toBe(6);

    // Only the day before yesterday (Berlin): the third customer's opening and nothing else.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(Date.now() - 2 * DAY_MS - 900_000));
    await page.getByLabel('From').fill(day);
    await page.getByLabel('To').fill(day);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('[data-report-range]', { hasText: `${day} to ${day}` }).waitFor();
    await expect(page.getByLabel('Range', { exact: true }).inputValue()).resolves.toBe('custom');
    await expect(page.locator('[data-tile="Opened"] .tile-value').textContent()).resolves.toBe('1');
    await expect(page.locator('[data-tile="Closed"] .tile-value').textContent()).resolves.toBe('0');

    // A reload shows the same days.
    await page.reload();
    await page.locator('[data-report-range]', { hasText: `${day} to ${day}` }).waitFor();
    await screenshot(page, '71-reports-custom-range');
    expect(errors).toEqual([]);
  });

  it('gives agents no Reports link, and tells them the page is for owners and admins', async () => {
    const agentContext = await signedInContext(browser, stack, agent.id);
    try {
      const agentPage = await agentContext.newPage();
      const agentErrors = collectPageErrors(agentPage);
      await agentPage.goto(`${stack.base}/`);
      await agentPage.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
      await expect(agentPage.getByRole('link', { name: 'Reports', exact: true }).count()).resolves.toBe(0);
      await agentPage.goto(`${stack.base}/reports`);
      await agentPage.getByText('Reports are for owners and admins').waitFor();
      expect(agentErrors).toEqual([]);
    } finally {
      await agentContext.close();
    }
  });
});
