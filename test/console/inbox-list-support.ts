// What the inbox-list and status browser tests share: a workspace with many conversations stored
// through the real ingest service (the history path, one transaction), some of them moved to other
// statuses, assignees, read or Cloud API with plain SQL, and a signed-in browser page.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { collectPageErrors, launchChromium, startConsoleStack, type ConsoleStack } from './browser-support.js';

export interface SeededChat {
  i: number;
  id: string;
  name: string;
  phone: string;
  status: 'open' | 'pending' | 'snoozed' | 'closed';
  mine: boolean;
  unread: boolean;
  channel: 'scan' | 'meta';
  /** Carries the workspace's label `VIP` (made when any chat has it). */
  vip: boolean;
}

export interface InboxConsole {
  stack: ConsoleStack;
  workspaceId: string;
  ownerId: string;
  key: string;
  inbox: InboxFactories;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  errors: string[];
  close: () => Promise<void>;
}

export async function startInboxConsole(timezoneId = 'UTC'): Promise<InboxConsole> {
  const [stack, browser] = await Promise.all([startConsoleStack(), launchChromium()]);
  const { workspace, owner, key } = await stack.t.factories.workspaceWithOwner();
  // A signed-in context in a known time zone (the snooze presets are the reader's local times).
  const signed = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId });
  signed.setDefaultTimeout(15_000);
  const [name, value] = (await stack.t.factories.sessionCookie(owner.id)).split('=') as [string, string];
  await signed.addCookies([{ name, value, url: stack.base }]);
  const page = await signed.newPage();
  return {
    stack,
    workspaceId: workspace.id,
    ownerId: owner.id,
    key,
    inbox: new InboxFactories(stack.t.app),
    browser,
    context: signed,
    page,
    errors: collectPageErrors(page),
    close: async () => {
      await browser.close();
      await stack.stop();
    },
  };
}

const pad = (n: number): string => String(n).padStart(3, '0');
export const chatName = (i: number): string => `Customer ${pad(i)}`;
export const chatPhone = (i: number): string => `4915100${pad(i)}77`;

/**
 * `count` one-to-one conversations, `Customer 000` the newest (an hour ago) and each next one a
 * minute older, through the ingest service's history path. `shape(i)` says what else is true of
 * each; answers them newest first with their ids.
 */
export async function seedConversations(
  s: InboxConsole,
  count: number,
  shape: (i: number) => Partial<Pick<SeededChat, 'status' | 'mine' | 'unread' | 'channel' | 'vip'>> = () => ({}),
): Promise<SeededChat[]> {
  const start = Date.now() - 60 * 60_000;
  const chats = Array.from(
    { length: count },
    (_, i) =>
      ({ i, name: chatName(i), phone: chatPhone(i), status: 'open', mine: false, unread: true, channel: 'scan', vip: false, ...shape(i) }) as Omit<
        SeededChat,
        'id'
      >,
  );
  const inputs: InboundMessage[] = chats.map((c) =>
    s.inbox.inbound({
      channel: c.channel,
      phone: c.phone,
      chatName: c.name,
      contact: { phone: c.phone, name: c.name },
      content: `question ${c.i}`,
      timestamp: new Date(start - c.i * 60_000),
    }),
  );
  await s.inbox.ingest.ingestBatch(s.workspaceId, inputs);
  const db = s.stack.t.app.get(DataSource);
  const rows: { id: string; chat_phone: string; channel: string }[] = await db.query(
    `SELECT id, chat_phone, channel FROM conversations WHERE workspace_id = $1`,
    [s.workspaceId],
  );
  const idOf = new Map(rows.map((r) => [`${r.channel}:${r.chat_phone}`, r.id]));
  const seeded = chats.map((c) => ({ ...c, id: idOf.get(`${c.channel}:${c.phone}`)! }));
  const ids = (pick: (c: SeededChat) => boolean): string[] => seeded.filter(pick).map((c) => c.id);
  for (const status of ['pending', 'closed'] as const) {
    await db.query(`UPDATE conversations SET status = $2 WHERE id = ANY($1)`, [ids((c) => c.status === status), status]);
  }
  await db.query(`UPDATE conversations SET status = 'snoozed', snoozed_until = now() + interval '2 days' WHERE id = ANY($1)`, [
    ids((c) => c.status === 'snoozed'),
  ]);
  await db.query(`UPDATE conversations SET assignee_id = $2 WHERE id = ANY($1)`, [ids((c) => c.mine), s.ownerId]);
  await db.query(`UPDATE conversations SET unread_count = 0 WHERE id = ANY($1)`, [ids((c) => !c.unread)]);
  if (seeded.some((c) => c.vip)) {
    const [label] = (await db.query(`INSERT INTO labels (workspace_id, name, color) VALUES ($1, 'VIP', '#b42318') RETURNING id`, [s.workspaceId])) as {
      id: string;
    }[];
    await db.query(`UPDATE conversations SET label_ids = ARRAY[$2::uuid] WHERE id = ANY($1)`, [ids((c) => c.vip), label!.id]);
  }
  return seeded;
}

/** The Console's API with the workspace's key: `[status, body, headers]`. */
export async function apiGet(s: InboxConsole, path: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${s.stack.base}${path}`, { headers: { Authorization: `Bearer ${s.key}` } });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

export const listBox = (page: Page): Locator => page.getByRole('list', { name: 'Conversations' });
export const rowOf = (page: Page, id: string): Locator => page.locator(`li[data-row="${id}"]`);
/** The ids of the rows the list shows, top to bottom. */
export const shownIds = (page: Page): Promise<string[]> => page.locator('li[data-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')!));
