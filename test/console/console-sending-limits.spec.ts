import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { MessageRepository } from '../../src/modules/inbox/messages/message.repository.js';
import { OutboundQueueRepository } from '../../src/modules/inbox/outbound/outbound-queue.repository.js';
import { encodeQueuedSend } from '../../src/modules/inbox/outbound/queued-send.codec.js';
import { screenshot, until } from './browser-support.js';
import { startTeamConsole, type TeamConsole } from './team-tools-support.js';

/**
 * Sending with care for the number in the Console (issue 40): Settings → Sending (owners and
 * admins change the pace and caps, agents read them), the Overview's caps, and messages waiting in
 * the number's outbound queue shown as "queued" with their place.
 */
jest.setTimeout(60_000);

describe('the Console: sending limits and the outbound queue', () => {
  let s: TeamConsole;

  beforeAll(async () => {
    s = await startTeamConsole('sending');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('owners change the pace and caps in Settings → Sending; agents see them without changing them', async () => {
    const { page } = s;
    await page.goto(`${s.stack.base}/settings/sending`);
    const gap = page.getByLabel('Least gap between sends (ms)');
    await gap.waitFor();
    // A value past the bounds: the service's refusal is shown as it says it.
    await gap.fill('100');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'min_gap_ms must be an integer from 200 to 600000' }).waitFor();
    await gap.fill('2500');
    await page.getByLabel('New chats per day').fill('8');
    await page.getByLabel('Show "typing…" first').selectOption('all');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith('/api/chat/limits')),
      page.getByRole('button', { name: 'Save' }).click(),
    ]);
    // Only what changed is sent.
    expect(request.postDataJSON()).toEqual({ min_gap_ms: 2500, first_contacts_per_day: 8, typing: 'all' });
    await page.getByText('Saved: the next sends keep to it.').waitFor();
    const stored = await s.stack.t.dataSource.query(`SELECT min_gap_ms, first_contacts_per_day, typing FROM send_settings WHERE workspace_id = $1`, [
      s.workspaceId,
    ]);
    expect(stored).toEqual([{ min_gap_ms: 2500, first_contacts_per_day: 8, typing: 'all' }]);
    await screenshot(page, '40-settings-sending');

    const agent = await s.pageOf(s.agent);
    await agent.page.goto(`${s.stack.base}/settings/sending`);
    await agent.page.getByText('Owners and admins change these.').waitFor();
    await expect(agent.page.getByLabel('Least gap between sends (ms)').inputValue()).resolves.toBe('2500');
    await expect(agent.page.getByLabel('Least gap between sends (ms)').isDisabled()).resolves.toBe(true);
    await agent.context.close();
    expect(s.errors).toEqual([]);
  });

  it('messages waiting in the queue show "queued" with their place', async () => {
    const { page } = s;
    const messages = s.stack.t.app.get(MessageRepository);
    const queue = s.stack.t.app.get(OutboundQueueRepository);
    // Two sends queued for a number that is not connected: they wait (nothing sends them here).
    for (const body of ['first in line', 'second in line']) {
      const { message } = await messages.insertOutbound(s.workspaceId, s.conversation.id, {
        type: 'text',
        content: body,
        mediaUrl: '',
        mimeType: '',
        fileName: '',
        fileSize: 0,
        timestamp: new Date(),
      });
      await queue.insert(s.workspaceId, {
        messageId: message.id,
        conversationId: s.conversation.id,
        channel: 'scan',
        payload: encodeQueuedSend({ kind: 'message', outgoing: { type: 'text', body, messageId: message.id } }),
        typing: false,
      });
    }
    await page.goto(`${s.stack.base}/inbox/${s.conversation.id}`);
    const first = page.locator('.bubble', { hasText: 'first in line' }).locator('.bubble-status');
    const second = page.locator('.bubble', { hasText: 'second in line' }).locator('.bubble-status');
    await until('the places shown', async () => (await first.textContent())?.includes('queued · next') === true);
    await expect(second.textContent()).resolves.toContain('queued · 2nd');
    await screenshot(page, '40-queued-messages');

    // The first one leaves the queue: the second moves up within the refresh.
    const [row] = await s.stack.t.dataSource.query(`SELECT message_id FROM outbound_queue WHERE workspace_id = $1 ORDER BY ticket LIMIT 1`, [s.workspaceId]);
    await queue.remove(s.workspaceId, row.message_id);
    await until('the second moved up', async () => (await second.textContent())?.includes('queued · next') === true, 15_000);
    await expect(first.textContent()).resolves.toContain('sending…');
    expect(s.errors).toEqual([]);
  });

  it('the Overview shows the caps and the queue of a linked number', async () => {
    const { page } = s;
    // The number linked (its session row): the Overview's number tile and the sending tile show.
    await s.stack.t.dataSource.query(
      `INSERT INTO scan_sessions (workspace_id, desired, linked) VALUES ($1, 'stopped', true)
       ON CONFLICT (workspace_id) DO UPDATE SET linked = true`,
      [s.workspaceId],
    );
    await page.goto(`${s.stack.base}/`);
    const tile = page.locator('[data-sending]');
    await tile.waitFor();
    await expect(tile.textContent()).resolves.toContain('0 / 8');
    await expect(tile.textContent()).resolves.toContain('1 waiting to be sent');
    expect(s.errors).toEqual([]);
  });
});
