import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Page, Request } from 'playwright-core';
import { screenshot, until } from './browser-support.js';
import { apiGet, rowOf, seedConversations, shownIds, startInboxConsole, type InboxConsole, type SeededChat } from './inbox-list-support.js';

/**
 * Statuses in the Console (issue 39), mostly by keyboard: j/k through the list, p pending, s the
 * snooze dialog and a preset (the badge says until when), e close, o reopen, r/Enter into the
 * composer and Escape out of it, `?` for the shortcuts; keys typed into a field do nothing. Each
 * change is checked in the request, in the service's answer and on the page; then the same
 * controls on a phone.
 */
jest.setTimeout(90_000);

describe('the Console conversation statuses: pending, snooze, close and reopen with the keyboard', () => {
  let s: InboxConsole;
  let chats: SeededChat[];

  beforeAll(async () => {
    // A fixed time zone, so "tomorrow at 09:00" is a known instant.
    s = await startInboxConsole('UTC');
    chats = await seedConversations(s, 6);
  });
  afterAll(async () => {
    await s?.close();
  });

  const patch = async (page: Page, act: () => Promise<void>): Promise<Request> => {
    const [request] = await Promise.all([page.waitForRequest((r) => r.method() === 'PATCH' && /\/api\/conversations\/[^/]+$/.test(r.url())), act()]);
    expect((await request.response())!.status()).toBe(200);
    return request;
  };
  const stored = async (id: string): Promise<{ status: string; snoozed_until: string | null }> =>
    (await apiGet(s, `/api/conversations/${id}`)).body as { status: string; snoozed_until: string | null };
  const header = (page: Page) => page.locator('.conversation-header');
  /** Focus on the page itself, as after a click on an empty part of it. */
  const idle = (page: Page) => page.locator('#main').focus();

  it('moves through the list with j and k, and marks a conversation pending with p', async () => {
    await s.page.goto(`${s.stack.base}/inbox`);
    await rowOf(s.page, chats[0]!.id).waitFor();
    await idle(s.page);
    await s.page.keyboard.press('j');
    await s.page.waitForURL(`**/inbox/${chats[0]!.id}`);
    await s.page.keyboard.press('j');
    await s.page.waitForURL(`**/inbox/${chats[1]!.id}`);
    await s.page.keyboard.press('k');
    await s.page.waitForURL(`**/inbox/${chats[0]!.id}`);
    await s.page.keyboard.press('ArrowDown');
    await s.page.waitForURL(`**/inbox/${chats[1]!.id}`);
    await header(s.page)
      .getByRole('heading', { name: /Customer 001/ })
      .waitFor();

    const request = await patch(s.page, () => s.page.keyboard.press('p'));
    expect(request.postDataJSON()).toEqual({ status: 'pending' });
    await header(s.page).getByText('Pending', { exact: true }).waitFor();
    expect((await stored(chats[1]!.id)).status).toBe('pending');
    // It leaves the Open list (and counts under Pending); j goes on with the one after it.
    await rowOf(s.page, chats[1]!.id).waitFor({ state: 'detached' });
    await s.page
      .getByRole('group', { name: 'Status', exact: true })
      .getByRole('button', { name: /^Pending/ })
      .getByText('1')
      .waitFor();
    await s.page.keyboard.press('j');
    await s.page.waitForURL(`**/inbox/${chats[2]!.id}`);
    await screenshot(s.page, '64-status-pending');
  });

  it('snoozes with s and a preset: the header says until when; the Snoozed tab counts it', async () => {
    await header(s.page)
      .getByRole('heading', { name: /Customer 002/ })
      .waitFor();
    await idle(s.page);
    await s.page.keyboard.press('s');
    const dialog = s.page.getByRole('dialog', { name: 'Snooze until' });
    await dialog.waitFor();
    await screenshot(s.page, '64-status-snooze-menu');
    const tomorrow = new Date();
    tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
    tomorrow.setUTCHours(9, 0, 0, 0);
    const request = await patch(s.page, () => dialog.getByRole('button', { name: /Tomorrow at 09:00/ }).click());
    expect(request.postDataJSON()).toEqual({ status: 'snoozed', snoozed_until: tomorrow.toISOString() });
    await dialog.waitFor({ state: 'detached' });
    await header(s.page)
      .getByText(/^Snoozed until .*09:00/)
      .waitFor();
    expect(await stored(chats[2]!.id)).toMatchObject({ status: 'snoozed', snoozed_until: tomorrow.toISOString() });
    await s.page
      .getByRole('group', { name: 'Status', exact: true })
      .getByRole('button', { name: /^Snoozed/ })
      .getByText('1')
      .waitFor();
    await screenshot(s.page, '64-status-snoozed');

    // A date and time of one's own, through the same dialog (Snooze again…).
    await s.page.getByRole('button', { name: 'Snooze again…' }).click();
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel('Or a date and time').fill(`${day}T10:30`);
    const custom = await patch(s.page, () => dialog.getByRole('button', { name: 'Snooze', exact: true }).click());
    expect(custom.postDataJSON()).toEqual({ status: 'snoozed', snoozed_until: `${day}T10:30:00.000Z` });
    await dialog.waitFor({ state: 'detached' });
    expect((await stored(chats[2]!.id)).snoozed_until).toBe(`${day}T10:30:00.000Z`);
  });

  it('closes with e and reopens with o; r and Enter start a reply, Escape leaves it; keys typed in a field do nothing', async () => {
    await s.page.goto(`${s.stack.base}/inbox/${chats[3]!.id}`);
    await header(s.page)
      .getByRole('heading', { name: /Customer 003/ })
      .waitFor();
    await idle(s.page);
    const closed = await patch(s.page, () => s.page.keyboard.press('e'));
    expect(closed.postDataJSON()).toEqual({ status: 'closed' });
    await header(s.page).getByText('Closed', { exact: true }).waitFor();
    expect((await stored(chats[3]!.id)).status).toBe('closed');
    await screenshot(s.page, '64-status-closed');
    const reopened = await patch(s.page, () => s.page.keyboard.press('o'));
    expect(reopened.postDataJSON()).toEqual({ status: 'open' });
    await header(s.page).getByRole('button', { name: 'Close' }).waitFor();
    expect((await stored(chats[3]!.id)).status).toBe('open');

    const composer = s.page.locator('#composer-text');
    await s.page.keyboard.press('r');
    await until('the composer focused', () => composer.evaluate((el) => el === el.ownerDocument.activeElement));
    await s.page.keyboard.type('e and o are letters here');
    expect(await composer.inputValue()).toBe('e and o are letters here');
    await s.page.keyboard.press('Escape');
    await until('the composer left', async () => !(await composer.evaluate((el) => el === el.ownerDocument.activeElement)));
    await idle(s.page);
    await s.page.keyboard.press('Enter');
    await until('the composer focused by Enter', () => composer.evaluate((el) => el === el.ownerDocument.activeElement));
    await composer.fill('');
    await s.page.keyboard.press('Escape');

    // In the search box, e is a letter.
    let patched = false;
    s.page.on('request', (r) => {
      if (r.method() === 'PATCH') patched = true;
    });
    await s.page.getByRole('searchbox', { name: 'Filter conversations by name or phone' }).fill('');
    await s.page.getByRole('searchbox', { name: 'Filter conversations by name or phone' }).press('e');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(patched).toBe(false);
    expect((await stored(chats[3]!.id)).status).toBe('open');
    await s.page.getByRole('searchbox', { name: 'Filter conversations by name or phone' }).fill('');
  });

  it('shows the shortcuts with ?', async () => {
    await idle(s.page);
    await s.page.keyboard.press('?');
    const help = s.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const what of ['Next conversation', 'Close the conversation', 'Snooze… (choose until when)', 'Reopen the conversation', 'Mark as pending']) {
      await help.getByText(what).waitFor();
    }
    await screenshot(s.page, '64-status-shortcuts');
    await s.page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('offers the same status controls on a phone, with room for a finger', async () => {
    const phone = await s.browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await s.context.storageState(), timezoneId: 'UTC' });
    phone.setDefaultTimeout(15_000);
    const small = await phone.newPage();
    await small.goto(`${s.stack.base}/inbox/${chats[4]!.id}`);
    const controls = small.getByRole('group', { name: 'Conversation status' });
    await controls.waitFor();
    for (const button of await controls.getByRole('button').all()) expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    await screenshot(small, '65-phone-status-controls');
    const closed = await patch(small, () => controls.getByRole('button', { name: 'Close' }).click());
    expect(closed.postDataJSON()).toEqual({ status: 'closed' });
    await controls.getByRole('button', { name: 'Snooze…' }).click();
    const dialog = small.getByRole('dialog', { name: 'Snooze until' });
    await dialog.waitFor();
    const inAnHour = dialog.getByRole('button', { name: /In 1 hour/ });
    expect((await inAnHour.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    await screenshot(small, '65-phone-snooze-menu');
    const snoozed = await patch(small, () => inAnHour.click());
    const snoozedTo = Date.parse((snoozed.postDataJSON() as { snoozed_until: string }).snoozed_until);
    expect(Math.abs(snoozedTo - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    await small
      .locator('.conversation-header')
      .getByText(/^Snoozed until/)
      .waitFor();
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).toBe(390);
    await small.getByRole('link', { name: '← All conversations' }).click();
    await small.getByRole('list', { name: 'Conversations' }).waitFor();
    await until('the snoozed one out of the Open list', async () => !(await shownIds(small)).includes(chats[4]!.id));
    await phone.close();
    expect(s.errors).toEqual([]);
  });
});
