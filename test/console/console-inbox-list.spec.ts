import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Page } from 'playwright-core';
import { screenshot, until } from './browser-support.js';
import {
  apiGet,
  chatName,
  chatPhone,
  listBox,
  rowOf,
  seedConversations,
  shownIds,
  startInboxConsole,
  type InboxConsole,
  type SeededChat,
} from './inbox-list-support.js';

/**
 * The inbox list of issue 39 in a browser: every conversation reachable by scrolling (pages of
 * `before` + `X-Next-Cursor`), the status tabs with their counts and the other filters, live
 * updates that lift rows to the top without moving the rows being looked at or the selection, and
 * the two-screen phone layout.
 */
jest.setTimeout(120_000);

const COUNT = 250;
const shape = (i: number): Partial<SeededChat> => ({
  status: i % 20 === 1 ? 'closed' : i % 20 === 2 ? 'pending' : i % 50 === 3 ? 'snoozed' : 'open',
  mine: i % 4 === 0,
  unread: i % 3 !== 0,
  channel: i % 50 === 7 ? 'meta' : 'scan',
  vip: i % 9 === 0,
});

describe('the Console inbox list: the whole list, filters with counts, live updates, phone layout', () => {
  let s: InboxConsole;
  let chats: SeededChat[];
  const where = (pick: (c: SeededChat) => boolean): string[] => chats.filter(pick).map((c) => c.id);
  const open = (): string[] => where((c) => c.status === 'open');

  beforeAll(async () => {
    s = await startInboxConsole();
    chats = await seedConversations(s, COUNT, shape);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Scrolls the list to its end, page after page, until it says it holds them all. */
  const scrollToEnd = async (page: Page, statusWord: string, expected: number): Promise<void> => {
    const end = page.getByText(`All ${expected} ${statusWord} conversation${expected === 1 ? '' : 's'}`);
    await until(
      `the end of the ${statusWord} list`,
      async () => {
        await listBox(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        return end.isVisible();
      },
      30_000,
    );
  };
  const tab = (page: Page, name: string) => page.getByRole('group', { name: 'Status', exact: true }).getByRole('button', { name: new RegExp(`^${name}`) });

  it('scrolls through every open conversation, a page at a time, newest first, none twice', async () => {
    const lists: string[] = [];
    s.page.on('request', (r) => {
      if (r.method() === 'GET' && /\/api\/conversations\?/.test(r.url())) lists.push(r.url());
    });
    await s.page.goto(`${s.stack.base}/inbox`);
    await rowOf(s.page, chats[0]!.id).waitFor();
    expect(await shownIds(s.page)).toEqual(open().slice(0, 50));

    await scrollToEnd(s.page, 'open', open().length);
    expect(open().length).toBeGreaterThan(200);
    expect(await shownIds(s.page)).toEqual(open());
    // Page one, then one request per further page, each continuing from the last cursor.
    const later = lists.filter((url) => url.includes('before='));
    expect(later.length).toBe(Math.ceil(open().length / 50) - 1);
    expect(new URL(lists[0]!).searchParams.get('limit')).toBe('50');

    const the200th = rowOf(s.page, open()[199]!);
    await the200th.scrollIntoViewIfNeeded();
    expect(await the200th.textContent()).toContain(chats.find((c) => c.id === open()[199])!.name);
    await screenshot(s.page, '60-inbox-list-200th');
  });

  it('shows each status tab with its count and filters by assignee, unread, channel and name or phone', async () => {
    const counts = (await apiGet(s, '/api/conversations/counts?status=open')).body as { status: Record<string, number> };
    for (const [status, word] of [
      ['open', 'Open'],
      ['pending', 'Pending'],
      ['snoozed', 'Snoozed'],
      ['closed', 'Closed'],
    ] as const) {
      const n = where((c) => c.status === status).length;
      expect(counts.status[status]).toBe(n);
      await expect(tab(s.page, word).textContent()).resolves.toBe(`${word}${n}`);
    }

    await tab(s.page, 'Pending').click();
    await scrollToEnd(s.page, 'pending', where((c) => c.status === 'pending').length);
    expect(await shownIds(s.page)).toEqual(where((c) => c.status === 'pending'));
    expect(await tab(s.page, 'Pending').getAttribute('aria-pressed')).toBe('true');

    await tab(s.page, 'Open').click();
    const assignee = s.page.getByLabel('Assigned to');
    const mine = where((c) => c.status === 'open' && c.mine);
    await until('the Open counts', async () => (await assignee.locator('option[value="me"]').textContent()) === `Mine (${mine.length})`);
    await expect(assignee.locator('option[value="none"]').textContent()).resolves.toBe(`Unassigned (${open().length - mine.length})`);
    await assignee.selectOption('me');
    await scrollToEnd(s.page, 'open', mine.length);
    expect(await shownIds(s.page)).toEqual(mine);

    const unread = s.page.getByLabel(/^Unread/);
    await expect(unread.locator('xpath=..').textContent()).resolves.toBe(`Unread (${where((c) => c.status === 'open' && c.unread).length})`);
    await unread.check();
    const mineUnread = where((c) => c.status === 'open' && c.mine && c.unread);
    await scrollToEnd(s.page, 'open', mineUnread.length);
    expect(await shownIds(s.page)).toEqual(mineUnread);
    await screenshot(s.page, '61-inbox-filters-mine-unread');

    await unread.uncheck();
    await assignee.selectOption('all');
    await s.page.getByLabel('Channel').selectOption('meta');
    const meta = where((c) => c.status === 'open' && c.channel === 'meta');
    await scrollToEnd(s.page, 'open', meta.length);
    expect(await shownIds(s.page)).toEqual(meta);
    await s.page.getByLabel('Channel').selectOption('');

    const label = s.page.getByRole('group', { name: 'Filter conversations' }).getByRole('combobox', { name: /^Label/ });
    const vip = where((c) => c.status === 'open' && c.vip);
    await expect(label.locator('option', { hasText: 'VIP' }).textContent()).resolves.toBe(`VIP (${vip.length})`);
    await label.selectOption({ label: `VIP (${vip.length})` });
    await scrollToEnd(s.page, 'open', vip.length);
    expect(await shownIds(s.page)).toEqual(vip);
    await label.selectOption('');

    const search = s.page.getByRole('searchbox', { name: 'Filter conversations by name or phone' });
    await search.fill(chatName(45));
    await until('one search result', async () => (await shownIds(s.page)).join() === chats[45]!.id);
    await search.fill(chatPhone(44));
    await until('one phone result', async () => (await shownIds(s.page)).join() === chats[44]!.id);
    await search.fill('nobody by this name');
    await s.page.getByText('No open conversations match.').waitFor();
    await s.page.getByRole('button', { name: 'Clear the filters' }).click();
    await rowOf(s.page, chats[0]!.id).waitFor();
    expect(await search.inputValue()).toBe('');
  });

  it('keeps the rows in view and the selection in place while live messages lift other rows to the top', async () => {
    await s.page.goto(`${s.stack.base}/inbox`);
    const target = open()[100]!;
    await until('row 100 loaded', async () => {
      await listBox(s.page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      return (await rowOf(s.page, target).count()) > 0;
    });
    await rowOf(s.page, target).scrollIntoViewIfNeeded();
    await rowOf(s.page, target).getByRole('link').click();
    await s.page.waitForURL(`**/inbox/${target}`);
    await s.page.getByRole('article').waitFor();
    const before = (await rowOf(s.page, target).boundingBox())!;
    const scrolledBefore = await listBox(s.page).evaluate((el) => el.scrollTop);
    expect(scrolledBefore).toBeGreaterThan(1000);

    // One far below, one above the view, and a brand-new chat: all three go to the top.
    const below = chats.find((c) => c.i === 150)!;
    const above = chats.find((c) => c.i === 5)!;
    for (const c of [below, above])
      await s.inbox.message(s.workspaceId, { phone: c.phone, chatName: c.name, contact: { phone: c.phone, name: c.name }, content: 'news' });
    const fresh = await s.inbox.conversation(s.workspaceId, {
      phone: '491510099999',
      chatName: 'Brand New',
      contact: { phone: '491510099999', name: 'Brand New' },
    });
    await until('the three at the top', async () => (await shownIds(s.page)).slice(0, 3).sort().join() === [below.id, above.id, fresh.id].sort().join());

    const after = (await rowOf(s.page, target).boundingBox())!;
    expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(2);
    expect(await rowOf(s.page, target).getByRole('link').getAttribute('aria-current')).toBe('true');
    expect(s.page.url()).toBe(`${s.stack.base}/inbox/${target}`);
    await screenshot(s.page, '62-inbox-live-kept-place');

    await listBox(s.page).evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(rowOf(s.page, fresh.id).textContent()).resolves.toContain('Brand New');
  });

  it('is two screens on a phone: the list, or one conversation with a back button', async () => {
    const phone = await s.browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await s.context.storageState(), timezoneId: 'UTC' });
    phone.setDefaultTimeout(15_000);
    const small = await phone.newPage();
    await small.goto(`${s.stack.base}/inbox`);
    await listBox(small).waitFor();
    await screenshot(small, '63-phone-inbox-list');
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).toBe(390);
    expect((await tab(small, 'Open').boundingBox())!.height).toBeGreaterThanOrEqual(40);

    const target = (await shownIds(small))[30]!;
    await rowOf(small, target).scrollIntoViewIfNeeded();
    expect((await rowOf(small, target).boundingBox())!.height).toBeGreaterThanOrEqual(40);
    await rowOf(small, target).getByRole('link').click();
    await small.waitForURL(`**/inbox/${target}`);
    await small.getByRole('article').waitFor();
    expect(await listBox(small).isVisible()).toBe(false);
    const back = small.getByRole('link', { name: '← All conversations' });
    expect((await back.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    for (const button of await small.getByRole('group', { name: 'Conversation status' }).getByRole('button').all()) {
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    }
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).toBe(390);
    await screenshot(small, '63-phone-inbox-conversation');

    // Back: the list where it was, with the conversation just read still in sight.
    await back.click();
    await listBox(small).waitFor();
    const list = (await listBox(small).boundingBox())!;
    const row = (await rowOf(small, target).boundingBox())!;
    expect(row.y).toBeGreaterThanOrEqual(list.y - 1);
    expect(row.y + row.height).toBeLessThanOrEqual(list.y + list.height + 1);
    await phone.close();
    expect(s.errors).toEqual([]);
  });
});
