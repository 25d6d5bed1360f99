import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screenshot, until } from './browser-support.js';
import { startTeamConsole, type TeamConsole } from './team-tools-support.js';

/**
 * Quick replies in the Console (issue 39): Settings → Quick replies, and `/` in the reply box:
 * the picker filters as one types, Enter puts the reply in the box filled in for the
 * conversation (contact, agent), ready to edit; Escape closes the picker.
 */
jest.setTimeout(60_000);

describe('the Console: quick replies', () => {
  let s: TeamConsole;

  beforeAll(async () => {
    s = await startTeamConsole('quick');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('owners manage quick replies in Settings; a bad shortcut is refused readably', async () => {
    const { page } = s;
    await page.goto(`${s.stack.base}/settings/quick-replies`);
    await page.getByText('No quick replies yet.').waitFor();
    for (const [shortcut, text] of [
      ['thanks', 'Thanks {{contact.name}}! {{agent.name}} here, happy to help.'],
      ['tracking', 'Your parcel is on its way: {{tracking.url}}'],
      ['address', 'We are at Rua Augusta 1, Lisbon.'],
    ] as const) {
      await page.getByRole('button', { name: 'New quick reply' }).click();
      const dialog = page.getByRole('dialog', { name: 'New quick reply' });
      await dialog.getByLabel('Shortcut').fill(shortcut);
      await dialog.getByLabel('Text').fill(text);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    const table = page.getByRole('table', { name: 'Quick replies' });
    await expect(table.locator('code').allTextContents()).resolves.toEqual(['/address', '/thanks', '/tracking']);

    await page.getByRole('button', { name: 'New quick reply' }).click();
    const dialog = page.getByRole('dialog', { name: 'New quick reply' });
    await dialog.getByLabel('Shortcut').fill('Two Words');
    await dialog.getByLabel('Text').fill('x');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Shortcut must be 1-32 lowercase letters, digits, - or _' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, '39-settings-quick-replies');
    expect(s.errors).toEqual([]);
  });

  it('`/` in the reply box opens the picker; typing filters it, Enter inserts the filled-in text', async () => {
    const { page } = s;
    await page.goto(`${s.stack.base}/inbox/${s.conversation.id}`);
    await page.locator('.bubble-text', { hasText: 'Hello, where is my order?' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.click();
    await page.keyboard.type('/');
    const picker = page.getByRole('listbox', { name: 'Quick replies' });
    await expect(picker.locator('.picker-key').allTextContents()).resolves.toEqual(['/address', '/thanks', '/tracking']);
    await page.keyboard.type('t');
    // Shortcuts starting with what was typed come first.
    await expect(picker.locator('.picker-key').allTextContents()).resolves.toEqual(['/thanks', '/tracking']);
    await page.keyboard.type('h');
    await expect(picker.locator('.picker-key').allTextContents()).resolves.toEqual(['/thanks']);
    await screenshot(page, '39-quick-reply-picker');

    const [request] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/render')), box.press('Enter')]);
    expect(request.postDataJSON()).toEqual({ conversation_id: s.conversation.id });
    await until('the page to follow', async () => (await box.inputValue()) === 'Thanks Maria Souza! Olivia Owner here, happy to help.');
    await expect(picker.count()).resolves.toBe(0);
    // Nothing was sent: the text waits in the box to be edited.
    const sends = await s.stack.t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1 AND direction = 'outbound'`, [
      s.conversation.id,
    ]);
    expect(sends[0].n).toBe(0);
    await screenshot(page, '39-quick-reply-inserted');

    // Arrow keys choose; unknown placeholders stay as typed; Escape closes the picker.
    await box.fill('');
    await page.keyboard.type('/');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await box.press('Enter');
    await until('the page to follow', async () => (await box.inputValue()) === 'Your parcel is on its way: {{tracking.url}}');
    await box.fill('');
    await page.keyboard.type('/a');
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await expect(picker.count()).resolves.toBe(0);
    await expect(box.inputValue()).resolves.toBe('/a');
    expect(s.errors).toEqual([]);
  });
});
