import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screenshot } from './browser-support.js';
import { startTeamConsole, type TeamConsole } from './team-tools-support.js';

/**
 * Private notes in the Console (issue 39): Note mode in the composer with an @mention picker, the
 * note in the timeline (yellow, marked private, with its author), live in a colleague's open
 * conversation, and the Mentions page of the member it names.
 */
jest.setTimeout(60_000);

describe('the Console: private notes and mentions', () => {
  let s: TeamConsole;

  beforeAll(async () => {
    s = await startTeamConsole('notes');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('writes a note with an @mention; it shows as a private note, live for a colleague, and never as a message', async () => {
    const { page } = s;
    const colleague = await s.pageOf(s.agent);
    await colleague.page.goto(`${s.stack.base}/inbox/${s.conversation.id}`);
    await colleague.page.locator('.bubble-text', { hasText: 'Hello, where is my order?' }).waitFor();

    await page.goto(`${s.stack.base}/inbox/${s.conversation.id}`);
    await page.locator('.bubble-text', { hasText: 'Hello, where is my order?' }).waitFor();
    await page.getByRole('button', { name: 'Note', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Private note' });
    await box.click();
    await page.keyboard.type('Refund approved, @An');
    const picker = page.getByRole('listbox', { name: 'Mention a member' });
    await picker.getByRole('option', { name: /@Ana Agent/ }).waitFor();
    await screenshot(page, '39-note-mention-picker');
    await box.press('Enter');
    await expect(box.inputValue()).resolves.toBe('Refund approved, @Ana Agent ');
    await page.keyboard.type('please call her back');

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/conversations/${s.conversation.id}/notes`)),
      box.press('Enter'),
    ]);
    expect(request.postDataJSON()).toEqual({ body: 'Refund approved, @Ana Agent please call her back', mentions: [s.agent.id] });
    const note = page.locator('.note-bubble', { hasText: 'please call her back' });
    await note.waitFor();
    await expect(note.textContent()).resolves.toContain('Private note');
    await expect(note.textContent()).resolves.toContain('Olivia Owner');
    await expect(box.inputValue()).resolves.toBe('');
    await screenshot(page, '39-note-in-timeline');

    // The colleague's open conversation shows it at once (note.created).
    await colleague.page.locator('.note-bubble', { hasText: 'please call her back' }).waitFor();
    // No message was sent: the conversation still has the one inbound message.
    const messages = await s.stack.t
      .http()
      .get(`/api/conversations/${s.conversation.id}/messages`)
      .set('Authorization', `Bearer ${(await s.stack.t.factories.apiKey(s.workspaceId)).key}`);
    expect(messages.body.messages).toHaveLength(1);
    await colleague.context.close();
    expect(s.errors).toEqual([]);
  });

  it('the mentioned member finds the note on the Mentions page and opens its conversation from there', async () => {
    const { page, context, errors } = await s.pageOf(s.agent);
    await page.goto(`${s.stack.base}/inbox`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mentions' }).click();
    const mention = page.locator('.mention', { hasText: 'please call her back' });
    await mention.waitFor();
    await expect(mention.textContent()).resolves.toContain('Olivia Owner');
    await screenshot(page, '39-mentions');
    await mention.getByRole('link', { name: 'Maria Souza' }).click();
    await page.waitForURL(`**/inbox/${s.conversation.id}`);
    await page.locator('.note-bubble', { hasText: 'please call her back' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the owner, mentioned by nobody, sees an empty Mentions page', async () => {
    await s.page.goto(`${s.stack.base}/mentions`);
    await s.page.getByText('Nobody has mentioned you yet.').waitFor();
    expect(s.errors).toEqual([]);
  });
});
