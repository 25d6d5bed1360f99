import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { toBuffer } from 'qrcode';
import { EncryptionService } from '../../src/infra/crypto/encryption.service.js';
import { MEDIA_STORE, type MediaStore } from '../../src/modules/media/media-store.port.js';
import type { TestUser } from '../support/factories.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { collectPageErrors, launchChromium, linkIn, screenshot, startConsoleStack, until, type ConsoleStack } from './browser-support.js';

/**
 * The Console's other pages in a browser, on a workspace whose inbox is filled through the real
 * ingest pipeline: keyboard sign-in, history paging, media, assignment, contacts, invitations
 * from the mailed link, password reset from the mailed link, every optional feature's page, phone
 * width, the workspace switcher and signing out. One browser; one page per person.
 */
jest.setTimeout(30_000);

const BOB = 'bob@acme.test';

describe('the Console in a browser: a workspace with history', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let owner: TestUser;
  let workspaceId: string;
  let ownerContext: BrowserContext;
  let page: Page;
  let errors: string[];
  let mediaDir: string;
  const ids: Record<'long' | 'media' | 'group', string> = { long: '', media: '', group: '' };

  beforeAll(async () => {
    mediaDir = mkdtempSync(join(tmpdir(), 'console-media-'));
    [stack, browser] = await Promise.all([startConsoleStack({ MEDIA_DIR: mediaDir }), launchChromium()]);
    const { t } = stack;
    owner = await t.factories.user({ name: 'Olivia Owner', email: 'olivia@acme.test', password: 'olivia password 1' });
    const ws = await t.factories.workspace({ name: 'Acme' });
    workspaceId = ws.id;
    await t.factories.member(ws.id, owner.id, 'owner');

    const inbox = new InboxFactories(t.app);
    const phone = randomPhone();
    const start = Date.now() - 3_600_000;
    for (let i = 1; i <= 45; i += 1) {
      const { conversation } = await inbox.message(ws.id, {
        phone,
        contact: { phone, name: 'Long Talker' },
        content: `history ${i}`,
        timestamp: new Date(start + i * 60_000),
      });
      ids.long = conversation.id;
    }
    // A picture a person can see in the screenshots: a 96-pixel QR code as PNG.
    const PNG = await toBuffer('look at this', { type: 'png', width: 96, margin: 1 });
    const store = t.app.get<MediaStore>(MEDIA_STORE);
    await store.put(ws.id, 'a1b2c3d4e5f60718.png', PNG, { mimeType: 'image/png', fileName: null });
    await store.put(ws.id, 'a1b2c3d4e5f60719.pdf', Buffer.from('%PDF-1.4 tiny'), { mimeType: 'application/pdf', fileName: 'invoice.pdf' });
    // A contact's "image" that is really a page with a script (stored XSS, opened from its link).
    await store.put(ws.id, 'a1b2c3d4e5f6071a.bin', Buffer.from('<html><script>document.title = "ran"</script></html>'), {
      mimeType: 'text/html',
      fileName: null,
    });
    const mediaPhone = randomPhone();
    const media = { phone: mediaPhone, contact: { phone: mediaPhone, name: 'Media Sender' } };
    await inbox.message(ws.id, {
      ...media,
      type: 'image',
      content: 'look at this',
      media: { url: `/api/media/${ws.id}/a1b2c3d4e5f60718.png`, mimeType: 'image/png', fileSize: PNG.length },
    });
    ids.media = (
      await inbox.message(ws.id, {
        ...media,
        type: 'document',
        content: '',
        media: { url: `/api/media/${ws.id}/a1b2c3d4e5f60719.pdf`, mimeType: 'application/pdf', fileName: 'invoice.pdf', fileSize: 13 },
      })
    ).conversation.id;
    ids.group = (await inbox.message(ws.id, inbox.groupInbound('120363000000000001', { chatName: 'Team chat' }))).conversation.id;

    ownerContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    ownerContext.setDefaultTimeout(15_000);
    page = await ownerContext.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  it('signs in with the keyboard alone and lands on the page it was sent from', async () => {
    await page.goto(`${stack.base}/inbox`);
    await page.waitForURL(/\/login\?next=%2Finbox$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab');
    // An expression as a string: the tests are compiled without the DOM types.
    expect(await page.evaluate("document.activeElement?.getAttribute('type')")).toBe('email');
    await page.keyboard.type(owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.base}/inbox`);
    const group = page.locator(`[data-conversation="${ids.group}"]`);
    await group.waitFor();
    await expect(group.getByText('Group', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(group.getByLabel('1 unread').isVisible()).resolves.toBe(true);
    await expect(page.locator(`[data-conversation="${ids.long}"]`).getByLabel('45 unread').isVisible()).resolves.toBe(true);
  });

  it('pages back through a long history as the reader scrolls up', async () => {
    await page.locator(`[data-conversation="${ids.long}"]`).click();
    const bubbles = page.locator('.bubble');
    await page.locator('.bubble', { hasText: 'history 45' }).waitFor();
    expect(await bubbles.count()).toBe(30);
    // The newest page, scrolled to the newest message.
    expect(await page.locator('.messages').evaluate((box) => box.scrollHeight - box.scrollTop - box.clientHeight)).toBeLessThan(5);
    await page.locator('.messages').evaluate((box) => box.scrollTo(0, 0));
    await page.getByText('Beginning of the conversation').waitFor();
    expect(await bubbles.count()).toBe(45);
    await expect(bubbles.first().textContent()).resolves.toContain('history 1');
    // Opening it marked it read.
    await page.locator(`[data-conversation="${ids.long}"]`).getByLabel('45 unread').waitFor({ state: 'detached' });
  });

  it('assigns the conversation and closes it', async () => {
    await page.getByLabel('Assignee', { exact: true }).selectOption({ label: 'Olivia Owner' });
    await page.locator(`[data-conversation="${ids.long}"]`).getByText('Olivia Owner').waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.locator('.conversation-header').getByText('Closed', { exact: true }).waitFor();
    // The open list no longer holds it.
    await page.locator(`[data-conversation="${ids.long}"]`).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Reopen' }).waitFor();
  });

  it('previews images and links documents, loaded with the workspace', async () => {
    await page.locator(`[data-conversation="${ids.media}"]`).click();
    const image = page.getByRole('img', { name: 'Image: look at this' });
    await image.waitFor();
    // The 96-pixel PNG really loaded (through the session cookie and ?tenant=).
    await until('the image to load', async () => (await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) === 96);
    const link = page.locator('a.media-document');
    expect(await link.getAttribute('href')).toBe(`/api/media/${workspaceId}/a1b2c3d4e5f60719.pdf?tenant=${workspaceId}`);
    expect(await link.getAttribute('download')).toBe('invoice.pdf');
    const file = await page.request.get(`${stack.base}${await link.getAttribute('href')}`);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-disposition']).toContain('invoice.pdf');
    await screenshot(page, '08-conversation-media');

    // The image link opens the picture in a tab (the sandboxing CSP leaves the browser's own image
    // page working); an HTML "image" opened the same way is a download, and its script never runs.
    const tab = await ownerContext.newPage();
    try {
      await tab.goto(`${stack.base}${await page.locator('a.media-image').getAttribute('href')}`);
      await until(
        'the image in its tab',
        async () => (await tab.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) === 96,
      );
      const [download] = await Promise.all([
        tab.waitForEvent('download'),
        tab.goto(`${stack.base}/api/media/${workspaceId}/a1b2c3d4e5f6071a.bin?tenant=${workspaceId}`).catch(() => null),
      ]);
      expect(download.suggestedFilename()).toBe('a1b2c3d4e5f6071a.bin');
      expect(await tab.title()).not.toBe('ran');
    } finally {
      await tab.close();
    }
  });

  it('says readably why a new conversation cannot start while no number is linked', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New conversation' });
    await dialog.getByLabel('Phone number').fill('+49 151 2345 6789');
    await dialog.getByLabel('First message').fill('Hello');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Chat is not connected.' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('manages contacts: add, a duplicate refused readably, search, edit, delete', async () => {
    await page.getByRole('link', { name: 'Contacts', exact: true }).click();
    await page.getByRole('button', { name: 'Add contact' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add contact' });
    await dialog.getByLabel('Phone number').fill('+44 20 7946 0000');
    await dialog.getByLabel('Name').fill('Zed Zulu');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Zed Zulu', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add contact' }).click();
    dialog = page.getByRole('dialog', { name: 'Add contact' });
    await dialog.getByLabel('Phone number').fill('442079460000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A contact with this phone number already exists.' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByLabel('Search by name or number').fill('zulu');
    await page.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit Zed Zulu' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit contact' });
    await dialog.getByLabel('Name').fill('Zed Zulu-Yankee');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Zed Zulu-Yankee', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Delete Zed Zulu-Yankee' }).click();
    await page.getByRole('dialog', { name: 'Delete this contact?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No contact matches “zulu”.').waitFor();
    await screenshot(page, '09-contacts');
  });

  it('has every feature: templates, automations, knowledge, webhooks and the Cloud API each show their (empty) page', async () => {
    for (const [path, empty] of [
      ['/templates', 'No templates yet.'],
      ['/automations', 'No automations yet.'],
      ['/knowledge', 'No articles yet.'],
      ['/settings/webhooks', 'No webhooks yet.'],
      // The platform's Meta app is not configured on this server: the service answers 503 and the page says so.
      ['/settings/cloud', "Customer signup is awaiting platform configuration. Enter the number's details below instead."],
    ] as const) {
      await page.goto(`${stack.base}${path}`);
      await page.getByText(empty).waitFor();
      await expect(page.getByText('not available').count()).resolves.toBe(0);
    }
    await expect(page.getByRole('heading', { name: 'Enter the details' }).isVisible()).resolves.toBe(true);
  });

  it('shows a webhook URL’s password as ***, and an edit saved as shown keeps the password', async () => {
    const { t } = stack;
    const real = 'https://hook-user:p%40ss-w0rd@hooks.example.com/in';
    const masked = 'https://hook-user:***@hooks.example.com/in';
    const cookie = await t.factories.sessionCookie(owner.id);
    const created = await t
      .http()
      .post('/api/webhooks')
      .set('Cookie', cookie)
      .set('X-Tenant-ID', workspaceId)
      .send({ url: real, events: ['meta.chat'] });
    expect(created.status).toBe(201);
    const sealedUrl = async (): Promise<string> =>
      t.app
        .get(EncryptionService)
        .decryptString(
          ((await t.dataSource.query(`SELECT sealed_url FROM webhooks WHERE id = $1`, [created.body.id])) as { sealed_url: string }[])[0]!.sealed_url,
          'webhook-url',
        );

    await page.goto(`${stack.base}/settings/webhooks`);
    const card = page.locator('.card', { hasText: masked });
    await card.getByText('enabled', { exact: true }).waitFor();
    await card.getByRole('button', { name: `Edit the webhook to ${masked}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
    await expect(dialog.getByLabel('Endpoint URL').inputValue()).resolves.toBe(masked);
    await dialog.getByText('*** stands for the saved credential').waitFor();
    await dialog.getByLabel(/^scan\.chat/).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(card.locator('.badge').allTextContents()).resolves.toEqual(['enabled', 'scan.chat', 'meta.chat']);
    expect(await page.content()).not.toContain('p%40ss-w0rd');
    expect(await sealedUrl()).toBe(real);

    await t
      .http()
      .delete(`/api/webhooks/${created.body.id as string}`)
      .set('Cookie', cookie)
      .set('X-Tenant-ID', workspaceId)
      .expect(200);
  });

  it('invites a member, who signs up from the mailed link and joins as an agent', async () => {
    await page.goto(`${stack.base}/settings/members`);
    await page.getByLabel('Email').fill(BOB);
    await page.getByLabel('Role', { exact: true }).selectOption('agent');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(`An invitation is on its way to ${BOB}.`).waitFor();
    await screenshot(page, '10-settings-members');

    const mail = await stack.smtp.waitFor(BOB, (m) => m.subject === 'You are invited to join Acme');
    const link = linkIn(mail.text, '/accept-invite');
    const bobContext = await browser.newContext();
    bobContext.setDefaultTimeout(10_000);
    const bob = await bobContext.newPage();
    const bobErrors = collectPageErrors(bob);
    await bob.goto(link);
    await bob.waitForURL(/\/login\?next=/);
    await bob.getByRole('link', { name: 'Create an account' }).click();
    await bob.getByLabel('Your name').fill('Bob Agent');
    await bob.getByLabel('Email').fill(BOB);
    await bob.getByLabel('Password').fill('bob password 1');
    await bob.getByRole('button', { name: 'Create account' }).click();
    await bob.getByText('You joined Acme as agent.').waitFor();
    await bob.getByRole('button', { name: 'Open Acme' }).click();
    await bob.getByRole('heading', { name: 'Overview · Acme' }).waitFor();

    // An agent's inbox holds the unassigned conversations; one the owner assigns to herself leaves it.
    await bob.getByRole('link', { name: 'Inbox', exact: true }).click();
    await bob.locator(`[data-conversation="${ids.group}"]`).waitFor();
    const ownerCookie = await stack.t.factories.sessionCookie(owner.id);
    const assigned = await stack.t
      .http()
      .post(`/api/conversations/${ids.group}/assign`)
      .set('Cookie', ownerCookie)
      .set('X-Tenant-ID', workspaceId)
      .set('Origin', stack.base)
      .send({ user_id: owner.id });
    expect(assigned.status).toBe(200);
    await bob.locator(`[data-conversation="${ids.group}"]`).waitFor({ state: 'detached' });

    // An agent: no administration tabs, and linking the number is for admins.
    await bob.getByRole('link', { name: 'Settings', exact: true }).click();
    await bob.getByRole('link', { name: 'Members' }).waitFor();
    expect(await bob.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await bob.getByRole('link', { name: 'WhatsApp', exact: true }).click();
    await bob.getByText('Only owners and admins can link a number.').waitFor();

    // Forgot password → the mailed link survives a reload → the new password signs in.
    await bob.getByRole('button', { name: 'Sign out' }).click();
    await bob.waitForURL(/\/login$/);
    await bob.getByRole('link', { name: 'Forgot your password?' }).click();
    await bob.getByLabel('Email').fill(BOB);
    await bob.getByRole('button', { name: 'Send the link' }).click();
    await bob.getByText(`If an account exists for ${BOB}`).waitFor();
    const reset = await stack.smtp.waitFor(BOB, (m) => m.subject === 'Reset your password');
    await bob.goto(linkIn(reset.text, '/reset-password'));
    await bob.reload();
    await bob.getByLabel('New password', { exact: true }).fill('bob new password');
    await bob.getByLabel('Repeat the new password').fill('bob new password');
    await bob.getByRole('button', { name: 'Set the new password' }).click();
    await bob.getByText('Your password was changed.').waitFor();
    await bob.getByLabel('Email').fill(BOB);
    await bob.getByLabel('Password', { exact: true }).fill('bob new password');
    await bob.getByRole('button', { name: 'Sign in' }).click();
    await bob.getByRole('heading', { name: 'Overview · Acme' }).waitFor();
    expect(bobErrors).toEqual([]);
    await bobContext.close();

    await page.reload();
    await page.getByRole('cell', { name: BOB }).waitFor();
  }, 60_000);

  it('explains a failed Google sign-in, and a confirm page without a pending sign-up', async () => {
    const visitor = await browser.newContext();
    visitor.setDefaultTimeout(10_000);
    const guest = await visitor.newPage();
    await guest.goto(`${stack.base}/login?error=google&reason=flow_expired`);
    await guest.getByText('The Google sign-in took too long or was opened twice. Please start again.').waitFor();
    await guest.goto(`${stack.base}/login?error=google&reason=%3Cscript%3Ex`);
    await guest.getByText('Google sign-in did not work (script x). Please try again.').waitFor();
    // Google is not configured on this server: no button.
    expect(await guest.getByRole('link', { name: 'Continue with Google' }).count()).toBe(0);
    await guest.goto(`${stack.base}/signup/google`);
    await guest.getByRole('alert').filter({ hasText: 'No pending Google sign-up.' }).waitFor();
    await guest.getByRole('link', { name: 'Start again' }).waitFor();
    await visitor.close();
  });

  it('works at phone width: a menu, the list, then one conversation with a way back', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await ownerContext.storageState() });
    phone.setDefaultTimeout(10_000);
    const small = await phone.newPage();
    await small.goto(`${stack.base}/inbox`);
    await small.locator(`[data-conversation="${ids.group}"]`).waitFor();
    expect(await small.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await screenshot(small, '11-phone-inbox');
    await small.locator(`[data-conversation="${ids.group}"]`).click();
    await small.locator('.bubble').first().waitFor();
    expect(await small.locator('.inbox-list').isVisible()).toBe(false);
    await screenshot(small, '12-phone-conversation');
    await small.getByRole('link', { name: '← All conversations' }).click();
    await small.locator(`[data-conversation="${ids.group}"]`).waitFor();
    await small.getByRole('button', { name: 'Menu' }).click();
    await small.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await small.getByRole('heading', { name: 'Contacts' }).waitFor();
    // Nothing is wider than the screen.
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await phone.close();
  });

  it('creates a second workspace and switches between them', async () => {
    await page.goto(`${stack.base}/workspaces`);
    await page.getByLabel('Workspace name').fill('Second shop');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { name: 'Overview · Second shop' }).waitFor();
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Acme' });
    await page.getByRole('heading', { name: 'Overview · Acme' }).waitFor();
  });

  it('signs out; pages then ask to sign in again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await page.goto(`${stack.base}/contacts`);
    await page.waitForURL(/\/login\?next=%2Fcontacts$/);
    expect(errors).toEqual([]);
  });
});
