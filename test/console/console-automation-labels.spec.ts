import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { api, eventually, type Json } from '../e2e/e2e-support.js';
import { screenshot, until } from './browser-support.js';
import { startKindsConsole, type KindsConsole } from './message-kinds-support.js';

/**
 * The Console's last label and status gaps (issue 39): an automation built in the form with
 * "add a label" and "set the status", run by a message from the simulated phone through the real
 * Baileys driver, which leaves the conversation labelled and pending; and a contact labelled
 * (and unlabelled) on the Contacts page.
 */
jest.setTimeout(90_000);

const PHONE = '15550390601';
const CONTACT = '4915100390601';

describe('the Console: automations that label and set the status; labels on contacts', () => {
  let s: KindsConsole;
  let label: { id: string; name: string };

  beforeAll(async () => {
    s = await startKindsConsole(PHONE);
    // Labels are administered in the Console only (an API key may not): the owner's session.
    const res = await s.stack.t
      .http()
      .post('/api/labels')
      .set('Cookie', s.ws.owner.cookie)
      .set('X-Tenant-ID', s.ws.workspaceId)
      .send({ name: 'Billing', color: '#bf8700' });
    expect(res.status).toBe(201);
    label = res.body as { id: string; name: string };
  });
  afterAll(async () => {
    await s?.close();
  });

  it('builds an automation that adds a label and sets the status; a message runs it', async () => {
    const { page } = s;
    await page.goto(`${s.stack.base}/automations`);
    await page.getByText('No automations yet.').waitFor();
    await page.getByRole('button', { name: 'New automation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New automation' });
    await dialog.getByLabel('Name').fill('Park invoice questions');
    await dialog.getByRole('group', { name: 'Condition 1' }).getByLabel('Value').fill('invoice');

    const first = dialog.getByRole('group', { name: 'Action 1' });
    await first.getByLabel('Action', { exact: true }).selectOption('add_label');
    // The options are the workspace's labels, loaded by the dialog: wait for them before reading.
    await first.getByLabel('Label').locator('option', { hasText: 'Billing' }).waitFor({ state: 'attached' });
    await expect(first.getByLabel('Label').locator('option').allTextContents()).resolves.toEqual(['Choose a label', 'Billing']);
    await first.getByLabel('Label').selectOption({ label: 'Billing' });

    await dialog.getByRole('button', { name: 'Add an action' }).click();
    const second = dialog.getByRole('group', { name: 'Action 2' });
    await second.getByLabel('Action', { exact: true }).selectOption('set_status');
    const minutes = second.getByLabel('Snooze for (minutes)');
    // The minutes are asked for snoozed only: an hour to start with, gone again for pending.
    await expect(minutes.count()).resolves.toBe(0);
    await second.getByLabel('Status').selectOption('snoozed');
    await expect(minutes.inputValue()).resolves.toBe('60');
    await screenshot(page, '39-automation-label-status-form');
    await second.getByLabel('Status').selectOption('pending');
    await minutes.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.locator('.card', { hasText: 'Park invoice questions' });
    await card.getByText('add a label, then set the status to pending').waitFor();
    const saved = await s.stack.t.http().get('/api/automations').set('Cookie', s.ws.owner.cookie).set('X-Tenant-ID', s.ws.workspaceId);
    expect((saved.body as Json[])[0]).toMatchObject({
      trigger: 'message.inbound',
      conditions: [{ field: 'content', op: 'contains', value: 'invoice' }],
      actions: [
        { type: 'add_label', label_id: label.id },
        { type: 'set_status', status: 'pending' },
      ],
    });
    expect((saved.body as Json[])[0]!.actions).toEqual([
      expect.not.objectContaining({ snooze_minutes: expect.anything() }),
      expect.not.objectContaining({ snooze_minutes: expect.anything() }),
    ]);

    // The contact asks; the automation labels the conversation and parks it as pending.
    const external = await s.stack.sim.deliverText({ to: PHONE, from: CONTACT, name: 'Grace', text: 'Where is my invoice?' });
    const conversationId = String((await s.stored(external)).conversation_id);
    await eventually('the automation to act', async () => {
      const c = (await api(s.stack.t, s.ws, 'get', `/api/conversations/${conversationId}`)).body as Json;
      return c.status === 'pending' && (c.label_ids as string[]).includes(label.id);
    });
    await page.goto(`${s.stack.base}/inbox/${conversationId}`);
    const header = page.locator('.conversation-header');
    await header.getByText('Pending', { exact: true }).waitFor();
    // The chips render once the workspace's labels have loaded, which may come after the status.
    const chips = header.getByLabel('Labels', { exact: true }).locator('.label-chip');
    await chips.first().waitFor();
    await expect(chips.allTextContents()).resolves.toEqual(['Billing×']);
    await screenshot(page, '39-automation-labelled-pending');
    expect(s.errors).toEqual([]);
  });

  it('labels a contact on the Contacts page and takes the label off again', async () => {
    const { page } = s;
    await page.goto(`${s.stack.base}/contacts`);
    const row = page.locator('tr', { hasText: `+${CONTACT}` });
    const chips = row.locator('.label-chip');
    await row.waitFor();
    await expect(chips.count()).resolves.toBe(0);
    await row.getByRole('button', { name: /^Add a label to / }).click();
    await row.getByRole('listbox', { name: 'Add a label' }).getByRole('option', { name: 'Billing' }).click();
    await chips.filter({ hasText: 'Billing' }).waitFor();
    const storedLabels = async (): Promise<string[]> => {
      const res = await api(s.stack.t, s.ws, 'get', `/api/contacts?q=${CONTACT}`);
      return ((res.body as Json[])[0]!.label_ids as string[]) ?? [];
    };
    await expect(storedLabels()).resolves.toEqual([label.id]);
    await screenshot(page, '39-contact-labels');

    // A reload shows what is stored; × takes it off.
    await page.reload();
    await chips.filter({ hasText: 'Billing' }).waitFor();
    await row.getByRole('button', { name: /^Remove label Billing from / }).click();
    await until('the chip to go', async () => (await chips.count()) === 0);
    await expect(storedLabels()).resolves.toEqual([]);
    expect(s.errors).toEqual([]);
  });
});
