import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { toBuffer } from 'qrcode';
import { Receiver } from '../webhooks/webhook-support.js';
import { collectPageErrors, cookieOf, launchChromium, linkIn, screenshot, startConsoleStack, until, type ConsoleStack } from './browser-support.js';

/**
 * The Console end to end, as its first user lives it: sign up, create a workspace, link a number
 * by scanning the QR code (the simulator's phone scans what the page shows), receive a message
 * live, answer it and send an image (the simulator decrypts both), create an API key, add a
 * webhook (a loopback receiver) and watch its deliveries, let an automation answer a keyword,
 * confirm the email from the mailed link, read the overview. One browser, one page, in order.
 */
// Linking a device costs seconds of pure-JS curve math on a loaded machine.
jest.setTimeout(60_000);

const PHONE = '15550160001';
const CONTACT = '4915100160001';
const EMAIL = 'ada@console.test';
const PASSWORD = 'correct horse battery';

const hubSignature = (secret: string, body: Buffer): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('the Console in a browser: sign up, link, answer', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let receiver: Receiver;
  let conversationUrl = '';
  let secret = '';

  beforeAll(async () => {
    [stack, browser, receiver] = await Promise.all([
      // The receiver is on loopback over plain HTTP, which only these two switches allow.
      startConsoleStack({ ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true', BODY_LIMIT: '64kb' }),
      launchChromium(),
      Receiver.start(),
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await receiver?.close();
  });

  it('signs up, lands on the workspaces page and creates a workspace', async () => {
    await page.goto(`${stack.base}/`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/$/);
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    await page.getByLabel('Workspace name').fill('Acme support');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { name: 'Overview · Acme support' }).waitFor();
    await page.getByText('None linked').waitFor();
    // Unverified: the Console asks to confirm the address.
    await page.getByText('Please confirm your email address').waitFor();
  });

  it('links the number: the QR shown is the one the phone scans; then the number and its state', async () => {
    await page.getByRole('link', { name: 'WhatsApp', exact: true }).click();
    await page.getByRole('button', { name: 'Show the QR code' }).click();
    const qr = page.getByRole('img', { name: /QR code to link WhatsApp/ });
    await qr.waitFor({ timeout: 20_000 });
    const code = await qr.getAttribute('data-qr');
    expect(code).toBeTruthy();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await screenshot(page, '02-connect-qr');

    await stack.sim.scanQr(code!, PHONE);
    await page.getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(page.locator('.big-number').textContent()).resolves.toBe(`+${PHONE}`);
    await stack.sim.waitForLive(PHONE);
    await screenshot(page, '03-connect-linked');
  });

  it('shows an inbound message live in the inbox, with its unread badge', async () => {
    await page.getByRole('link', { name: 'Inbox', exact: true }).click();
    await page.getByText('No open conversations.').waitFor();
    await stack.sim.deliverText({ to: PHONE, from: CONTACT, name: 'Grace', text: 'Hello from the phone' });
    const row = page.locator('a.conversation', { hasText: 'Grace' });
    await row.waitFor({ timeout: 20_000 });
    await expect(row.getByLabel('1 unread').isVisible()).resolves.toBe(true);
    await expect(row.textContent()).resolves.toContain('Hello from the phone');
    await screenshot(page, '04-inbox-live');
  });

  it('opens the conversation (marked read), answers it, and the contact receives the answer', async () => {
    await page.locator('a.conversation', { hasText: 'Grace' }).click();
    await page.waitForURL(/\/inbox\/[0-9a-f-]{36}$/);
    conversationUrl = page.url();
    await page.locator('.bubble-inbound', { hasText: 'Hello from the phone' }).waitFor();
    await page.locator('a.conversation', { hasText: 'Grace' }).getByLabel('1 unread').waitFor({ state: 'detached' });

    const composer = page.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill('Hello Grace, how can we help?');
    await composer.press('Enter');
    const sent = await stack.sim.waitForSent((m) => m.text === 'Hello Grace, how can we help?');
    expect(sent.contact).toContain(CONTACT);
    await page.locator('.bubble-outbound', { hasText: 'Hello Grace, how can we help?' }).waitFor();
    await until('the composer to clear', async () => (await composer.inputValue()) === '');

    // A second inbound while the conversation is open shows at once and stays read.
    await stack.sim.deliverText({ to: PHONE, from: CONTACT, name: 'Grace', text: 'Thanks!' });
    await page.locator('.bubble-inbound', { hasText: 'Thanks!' }).waitFor({ timeout: 20_000 });
  });

  it('sends an attached image: the contact receives its bytes, and it shows as sent with its preview', async () => {
    // A picture worth looking at in the screenshots: a 132-pixel QR code as PNG.
    const PNG = await toBuffer('https://example.com/catalogue', { type: 'png', width: 132, margin: 1 });
    await page.locator('#composer-file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('dot.png').waitFor();
    await page.getByRole('textbox', { name: 'Caption', exact: true }).fill('a tiny picture');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/messages')),
      page.getByRole('button', { name: 'Send', exact: true }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({
      type: 'image',
      media: { data_base64: PNG.toString('base64'), mime_type: 'image/png', file_name: 'dot.png' },
      caption: 'a tiny picture',
    });
    // Baileys encrypts and uploads it to the simulator's media host; the contact's copy decrypts to the same bytes.
    const sent = await stack.sim.waitForSent((m) => m.media?.caption === 'a tiny picture');
    expect(sent.error).toBeUndefined();
    expect(sent).toMatchObject({ contact: CONTACT, media: { kind: 'image', mimetype: 'image/png' } });
    expect(sent.media!.data.equals(PNG)).toBe(true);
    const bubble = page.locator('.bubble-outbound', { hasText: 'a tiny picture' });
    await bubble.locator('.bubble-status', { hasText: /sent|delivered|read/ }).waitFor();
    await expect(page.getByText('dot.png').count()).resolves.toBe(0);
    // Our own copy comes back from the media host (WhatsApp's echo of the send) and shows as a preview.
    const preview = bubble.getByRole('img', { name: 'Image: a tiny picture' });
    await until(
      'the preview to load',
      async () => (await preview.count()) === 1 && (await preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) === 132,
      20_000,
    );
    await screenshot(page, '05-conversation');
  });

  it('says readably that an attachment is too large for the service, and keeps it for another try', async () => {
    // BODY_LIMIT is 64 KB here: the base64 of 100 KB does not fit.
    await page.locator('#composer-file').setInputFiles({ name: 'big.pdf', mimeType: 'application/pdf', buffer: randomBytes(100_000) });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'That is too large for the service to accept' }).waitFor();
    await expect(page.getByText('big.pdf').isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('big.pdf').waitFor({ state: 'detached' });
    await page.getByRole('alert').filter({ hasText: 'That is too large' }).waitFor({ state: 'detached' });
  });

  it('sends a template with its values filled in; the contact receives the filled-in text', async () => {
    const created = await stack.t
      .http()
      .post('/api/templates')
      .set('Cookie', await cookieOf(context))
      .set('X-Tenant-ID', await workspaceOf(page))
      .send({ name: 'order_ready', body: 'Hi {{1}}, your order {{2}} is ready.' });
    expect(created.status).toBe(201);
    await page.getByRole('button', { name: 'Send a template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a template' });
    await dialog.getByLabel('Template').selectOption({ label: 'order_ready (en)' });
    await dialog.getByLabel('Value for {{1}}').fill('Grace');
    await dialog.getByLabel('Value for {{2}}').fill('A-7');
    await expect(dialog.locator('[data-template-preview]').textContent()).resolves.toBe('Hi Grace, your order A-7 is ready.');
    await screenshot(page, '15-conversation-template');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    const sent = await stack.sim.waitForSent((m) => m.text === 'Hi Grace, your order A-7 is ready.');
    expect(sent.contact).toContain(CONTACT);
    await page.locator('.bubble-outbound', { hasText: 'Hi Grace, your order A-7 is ready.' }).waitFor();
  });

  it('starts a new conversation by phone number: the contact receives the first message, and it opens', async () => {
    // A number on WhatsApp (the service checks before it starts a conversation).
    stack.sim.addContact('4915100160002', 'Linus');
    await page.getByRole('button', { name: 'New conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New conversation' });
    await dialog.getByLabel('Phone number').fill('+49 151 0016 0002');
    await dialog.getByLabel('First message').fill('Hello Linus, your parcel is on its way.');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    const sent = await stack.sim.waitForSent((m) => m.text === 'Hello Linus, your parcel is on its way.');
    expect(sent.contact).toContain('4915100160002');
    await page.locator('.conversation-header').getByRole('heading', { name: '+4915100160002' }).waitFor();
    await page.locator('.bubble-outbound', { hasText: 'Hello Linus, your parcel is on its way.' }).waitFor();
    expect(page.url()).not.toBe(conversationUrl);
    await page.goto(conversationUrl);
  });

  it('keeps the conversation on a reload of its deep link', async () => {
    await page.reload();
    await page.locator('.bubble-inbound', { hasText: 'Hello from the phone' }).waitFor();
    expect(page.url()).toBe(conversationUrl);
  });

  it('creates an API key and shows it once, with a copy button; the key works', async () => {
    await page.goto(`${stack.base}/settings/keys`);
    await page.getByLabel('Name').fill('CRM sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('[data-secret="api-key"]');
    await shown.waitFor();
    const key = (await shown.textContent())!.trim();
    expect(key).toMatch(/^pk_live_[0-9a-f]{48}$/);
    await expect(page.getByRole('button', { name: 'Copy key' }).isVisible()).resolves.toBe(true);
    await screenshot(page, '06-api-key-created');

    const res = await stack.t.http().get('/api/conversations').set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);

    await page.reload();
    await page.getByRole('cell', { name: 'CRM sync', exact: true }).waitFor();
    expect(await page.content()).not.toContain(key);
    await expect(page.getByRole('cell', { name: `${key.slice(0, 16)}…` }).isVisible()).resolves.toBe(true);

    // Revoked after a confirmation: the key stops working at once.
    await page.getByRole('button', { name: 'Revoke CRM sync' }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.locator('tr.revoked', { hasText: 'CRM sync' }).waitFor();
    const refused = await stack.t.http().get('/api/conversations').set('Authorization', `Bearer ${key}`);
    expect(refused.status).toBe(401);

    // Revoked while its one-time panel is open: the panel (a dead key to copy) goes with it.
    await page.getByLabel('Name').fill('Throwaway');
    await page.getByRole('button', { name: 'Create key' }).click();
    await shown.waitFor();
    await page.getByRole('button', { name: 'Revoke Throwaway' }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.locator('tr.revoked', { hasText: 'Throwaway' }).waitFor();
    await shown.waitFor({ state: 'detached' });
  });

  it('adds a webhook and sends it a test event: delivered, with the response code, signed with the secret shown', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.getByLabel('Endpoint URL').fill(receiver.url('/hook'));
    await dialog.getByLabel(/^meta\.chat/).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const card = page.locator('.card', { hasText: receiver.url('/hook') });
    await card.getByText('enabled', { exact: true }).waitFor();
    await expect(card.locator('.badge').allTextContents()).resolves.toEqual(['enabled', 'scan.chat']);

    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    secret = (await page.locator('[data-secret="webhook-secret"]').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    await card.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByText('No deliveries yet.').waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const [test] = await receiver.waitFor(1, '/hook');
    expect(test!.headers['x-svc-event']).toBe('webhook.test');
    expect(test!.headers['x-hub-signature-256']).toBe(hubSignature(secret, test!.body));
    const row = page.locator('tbody tr', { hasText: 'webhook.test' });
    await row.getByText('delivered', { exact: true }).waitFor();
    await expect(row.locator('td[data-label="Response"]').textContent()).resolves.toBe('200');
    expect(await row.getAttribute('data-delivery')).toBe(test!.headers['webhook-id']);
  });

  it('rotates the signing secret after a confirmation; the next delivery is signed with the new one', async () => {
    await page.getByRole('link', { name: '← All webhooks' }).click();
    await page.getByRole('button', { name: 'Rotate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await dialog.waitFor({ state: 'detached' });
    const shown = page.locator('[data-secret="webhook-secret"]');
    await until('the new secret', async () => (await shown.textContent())?.trim() !== secret);
    secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, '14-settings-webhooks');

    await page
      .locator('.card', { hasText: receiver.url('/hook') })
      .getByRole('link', { name: 'Deliveries' })
      .click();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const [, again] = await receiver.waitFor(2, '/hook');
    expect(again!.headers['x-hub-signature-256']).toBe(hubSignature(secret, again!.body));
    await page.locator('tbody tr').nth(1).waitFor();
  });

  it('delivers an inbound message to the webhook; the log (refreshing by itself) shows it delivered', async () => {
    await stack.sim.deliverText({ to: PHONE, from: CONTACT, name: 'Grace', text: 'Is anyone there?' });
    const received = await receiver.waitFor(3, '/hook');
    const event = received.find((r) => r.headers['x-svc-event'] === 'scan.chat')!;
    expect(JSON.parse(event.body.toString())).toMatchObject({ event: 'message.inbound', content: 'Is anyone there?', chat_phone: CONTACT });
    const row = page.locator(`tbody tr[data-delivery="${String(event.headers['webhook-id'])}"]`);
    await row.getByText('delivered', { exact: true }).waitFor();
    await expect(row.locator('td[data-label="Event"]').textContent()).resolves.toBe('scan.chat');
    await expect(row.locator('td[data-label="Response"]').textContent()).resolves.toBe('200');

    // Sent again on request: the same webhook-id and bytes, a second attempt in the log.
    await row.getByRole('button', { name: /^Send the scan\.chat delivery of .* again$/ }).click();
    const [, , , again] = await receiver.waitFor(4, '/hook');
    expect(again!.headers['webhook-id']).toBe(event.headers['webhook-id']);
    expect(again!.body.equals(event.body)).toBe(true);
    await row.nth(1).waitFor();
    await screenshot(page, '13-settings-webhook-deliveries');
  });

  it('lets an automation made in the form answer a keyword by itself', async () => {
    await page.getByRole('link', { name: 'Automations', exact: true }).click();
    await page.getByRole('button', { name: 'New automation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New automation' });
    await dialog.getByLabel('Name').fill('Prices');
    const condition = dialog.getByRole('group', { name: 'Condition 1' });
    await condition.getByLabel('Operator').selectOption('contains');
    await condition.getByLabel('Value').fill('price');
    await dialog.getByRole('group', { name: 'Action 1' }).getByLabel('Reply text').fill('Our prices start at 10 EUR.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('.card', { hasText: 'Prices' }).getByText('When a message arrives and the text contains “price”: reply with a text.').waitFor();

    await stack.sim.deliverText({ to: PHONE, from: CONTACT, name: 'Grace', text: 'What is the PRICE of a box?' });
    const reply = await stack.sim.waitForSent((m) => m.text === 'Our prices start at 10 EUR.');
    expect(reply.contact).toContain(CONTACT);
    await page.goto(conversationUrl);
    await page.locator('.bubble-inbound', { hasText: 'What is the PRICE of a box?' }).waitFor();
    await page.locator('.bubble-outbound', { hasText: 'Our prices start at 10 EUR.' }).waitFor();
  });

  it('confirms the email from the mailed link, opened as a fresh page load', async () => {
    const mail = await stack.smtp.waitFor(EMAIL, (m) => m.subject === 'Confirm your email address');
    const link = linkIn(mail.text, '/verify-email');
    expect(link.startsWith(`${stack.base}/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await page.getByText('Your email address is confirmed.').waitFor();
    await page.getByRole('link', { name: 'Go to the Console' }).click();
    await page.getByRole('heading', { name: /^Overview/ }).waitFor();
    await expect(page.getByText('Please confirm your email address').count()).resolves.toBe(0);
  });

  it('shows the overview: the linked number, open conversations and the messages chart', async () => {
    await page.goto(`${stack.base}/`);
    await page.locator('.tile-number', { hasText: `+${PHONE}` }).waitFor();
    // Each tile loads on its own and shows "…" until its answer arrives.
    await until('every tile loaded', async () => !(await page.locator('.tile-value').allTextContents()).includes('…'));
    const open = page.locator('.tile', { hasText: 'Open conversations' }).locator('.tile-value');
    await expect(open.textContent()).resolves.toBe('2');
    // Today: four received; sent, the answer, the image, the template, the new conversation's first
    // message and the automation's answer.
    const today = page.locator('.chart table tbody tr').last();
    await expect(today.locator('td').allTextContents()).resolves.toEqual(['4', '5']);
    const hooks = page.locator('.tile', { hasText: 'Webhook deliveries' });
    await expect(hooks.locator('.tile-value').textContent()).resolves.toBe('100%');
    // The inbound message's delivery and its resend; the two test events are probes, not traffic.
    await hooks.getByText(/delivered \(2 of 2 in the last 24 h\); 0 pending/).waitFor();
    await screenshot(page, '01-overview');
  });

  it('fits every main page on a phone screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await context.storageState() });
    phone.setDefaultTimeout(15_000);
    const small = await phone.newPage();
    const webhookLog = await stack.t
      .http()
      .get('/api/webhooks')
      .set('Cookie', await cookieOf(context))
      .set('X-Tenant-ID', await workspaceOf(page));
    const pages: [string, string][] = [
      ['/', 'overview'],
      ['/inbox', 'inbox'],
      [new URL(conversationUrl).pathname, 'conversation'],
      ['/connect', 'connect'],
      ['/contacts', 'contacts'],
      ['/templates', 'templates'],
      ['/automations', 'automations'],
      ['/knowledge', 'knowledge'],
      ['/settings/members', 'settings-members'],
      ['/settings/keys', 'settings-keys'],
      ['/settings/webhooks', 'settings-webhooks'],
      [`/settings/webhooks/${webhookLog.body[0].id}`, 'settings-webhook-deliveries'],
      ['/settings/cloud', 'settings-cloud'],
      ['/settings/workspace', 'settings-workspace'],
      ['/workspaces', 'workspaces'],
    ];
    for (const [path, name] of pages) {
      await small.goto(`${stack.base}${path}`);
      await small.locator('main h1').waitFor({ state: 'attached' });
      await small.locator('.loading').first().waitFor({ state: 'detached' });
      if (path === '/') await small.locator('.tile-number').waitFor();
      await screenshot(small, `40-phone-${name}`);
      expect({ path, width: await small.evaluate<number>('document.documentElement.scrollWidth') }).toEqual({ path, width: 390 });
    }
    await phone.close();
  });

  it('pauses a webhook from its form, then deletes it after a confirmation', async () => {
    await page.goto(`${stack.base}/settings/webhooks`);
    const card = page.locator('.card', { hasText: receiver.url('/hook') });
    await card.getByRole('button', { name: /^Edit the webhook/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
    await dialog.getByLabel('Enabled').uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await card.getByText('disabled', { exact: true }).waitFor();
    await card.getByRole('button', { name: /^Delete the webhook/ }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No webhooks yet.').waitFor();
  });

  it('shows chats synced from the phone in the open inbox, without a reload', async () => {
    await page.goto(`${stack.base}/inbox`);
    await page.locator('a.conversation', { hasText: 'Grace' }).waitFor();
    // History is stored in bulk: no conversation event, only the sync's progress.
    await stack.sim.pushHistory(PHONE, [{ contact: '4915100000077', messages: [{ text: 'an archived question' }] }]);
    await page.locator('a.conversation', { hasText: 'an archived question' }).waitFor({ timeout: 20_000 });
  });

  it('keeps messages of the same second in the order they were sent, live and after a reload', async () => {
    await page.locator('a.conversation', { hasText: 'Grace' }).click();
    await page.locator('.bubble-inbound', { hasText: 'Thanks!' }).waitFor();
    const texts = ['one of three', 'two of three', 'three of three'];
    for (const text of texts) await stack.sim.deliverText({ to: PHONE, from: CONTACT, name: 'Grace', text });
    await page.locator('.bubble-inbound', { hasText: 'three of three' }).waitFor({ timeout: 20_000 });
    const order = async (): Promise<string[]> =>
      (await page.locator('.bubble-inbound').allTextContents()).flatMap((text) => texts.filter((t) => text.includes(t)));
    expect(await order()).toEqual(texts);
    await page.reload();
    await page.locator('.bubble-inbound', { hasText: 'three of three' }).waitFor();
    expect(await order()).toEqual(texts);
  });

  it('disconnects only after a confirmation; a new QR that nobody scans expires with "try again"', async () => {
    await page.getByRole('link', { name: 'WhatsApp', exact: true }).click();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect this number?' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(page.getByText('Connected', { exact: true }).isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('heading', { name: 'Link a WhatsApp number' }).waitFor({ timeout: 20_000 });
    const status = await stack.t
      .http()
      .get('/api/chat/status')
      .set('Cookie', await cookieOf(context))
      .set('X-Tenant-ID', await workspaceOf(page));
    expect(status.body).toMatchObject({ logged_in: false, connected: false });

    await page.getByRole('button', { name: 'Show the QR code' }).click();
    await page.getByRole('img', { name: /QR code to link WhatsApp/ }).waitFor({ timeout: 20_000 });
    stack.sim.expireQr();
    await page.getByText('The QR code expired — try again.').waitFor({ timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Try again' }).isVisible()).resolves.toBe(true);
    await screenshot(page, '07-connect-expired');
    expect(errors).toEqual([]);
  });
});

/** The workspace the Console acts in (kept in localStorage). */
function workspaceOf(page: Page): Promise<string> {
  return page.evaluate<string>("localStorage.getItem('console.workspace') ?? ''");
}
