import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screenshot, until } from './browser-support.js';
import { startTeamConsole, type TeamConsole } from './team-tools-support.js';

/**
 * Labels in the Console (issue 39): Settings → Labels (create, a refused duplicate, rename,
 * delete), and label chips on the conversation header (add from the menu, remove with ×),
 * which a colleague's open conversation follows live.
 */
jest.setTimeout(60_000);

describe('the Console: labels', () => {
  let s: TeamConsole;

  beforeAll(async () => {
    s = await startTeamConsole('labels');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('owners create labels in Settings; a duplicate name is refused readably', async () => {
    const { page } = s;
    await page.goto(`${s.stack.base}/settings/labels`);
    await page.getByText('No labels yet.').waitFor();
    for (const [name, colour] of [
      ['VIP', '#d1242f'],
      ['Billing', '#2da44e'],
      ['Old', '#6e7781'],
    ] as const) {
      await page.getByRole('button', { name: 'New label' }).click();
      const dialog = page.getByRole('dialog', { name: 'New label' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByRole('radio', { name: colour }).check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    const table = page.getByRole('table', { name: 'Labels' });
    await expect(table.locator('.label-chip').allTextContents()).resolves.toEqual(['Billing', 'Old', 'VIP']);

    await page.getByRole('button', { name: 'New label' }).click();
    const dialog = page.getByRole('dialog', { name: 'New label' });
    await dialog.getByLabel('Name').fill('vip');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A label with this name already exists' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete Old' }).click();
    await page.getByRole('dialog', { name: 'Delete this label?' }).getByRole('button', { name: 'Delete' }).click();
    await until('the page to follow', async () => (await table.locator('.label-chip').allTextContents()).join() === 'Billing,VIP');
    await screenshot(page, '39-settings-labels');
    expect(s.errors).toEqual([]);
  });

  it('puts labels on a conversation and takes one off; a colleague sees the chips change live', async () => {
    const { page } = s;
    const colleague = await s.pageOf(s.agent);
    await colleague.page.goto(`${s.stack.base}/inbox/${s.conversation.id}`);
    const theirChips = colleague.page.getByLabel('Labels', { exact: true }).locator('.label-chip');
    await colleague.page.locator('.bubble-text', { hasText: 'Hello, where is my order?' }).waitFor();

    await page.goto(`${s.stack.base}/inbox/${s.conversation.id}`);
    const chips = page.getByLabel('Labels', { exact: true }).locator('.label-chip');
    for (const name of ['VIP', 'Billing']) {
      await page.getByRole('button', { name: '+ Label' }).click();
      await page.getByRole('listbox', { name: 'Add a label' }).getByRole('option', { name: name }).click();
      await chips.filter({ hasText: name }).waitFor();
    }
    await expect(chips.allTextContents()).resolves.toEqual(['VIP×', 'Billing×']);
    await screenshot(page, '39-conversation-labels');
    await until('the page to follow', async () => (await theirChips.count()) === 2);

    await page.getByRole('button', { name: 'Remove label VIP' }).click();
    await until('the page to follow', async () => (await chips.count()) === 1);
    await until('the page to follow', async () => (await theirChips.allTextContents()).join() === 'Billing×');
    const stored = await s.stack.t.dataSource.query('SELECT label_ids FROM conversations WHERE id = $1', [s.conversation.id]);
    expect(stored[0].label_ids).toHaveLength(1);
    expect(colleague.errors).toEqual([]);
    await colleague.context.close();
    expect(s.errors).toEqual([]);
  });

  it('an agent sees the labels in Settings but cannot change the list', async () => {
    const { page, context, errors } = await s.pageOf(s.agent);
    await page.goto(`${s.stack.base}/settings/labels`);
    await page.getByRole('table', { name: 'Labels' }).locator('.label-chip', { hasText: 'VIP' }).waitFor();
    await expect(page.getByRole('button', { name: 'New label' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete VIP' }).count()).resolves.toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
