import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { workspaceCallers } from './conversation-fixtures.js';
import { call, type Caller } from './inbox-http.js';

interface Listed {
  id: string;
  status: string;
  chat_name: string;
  last_message_preview: string;
}

const SEEDED = 5000;
const EMPTY = 20;

describe('conversations: filters and the snapshot walk through every page', () => {
  let t: TestApp;
  let inbox: InboxFactories;

  beforeAll(async () => {
    ({ t, inbox } = await createInboxTestApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  const page = async (caller: Caller, query: string): Promise<{ rows: Listed[]; next: string | undefined }> => {
    const res = await call(t, caller, 'get', `/api/conversations${query}`);
    expect([res.status, res.body]).toEqual([200, expect.any(Array)]);
    return { rows: res.body as Listed[], next: res.headers['x-next-cursor'] };
  };

  /** Every page of `query` (limit and filters), following X-Next-Cursor to the end. */
  const walk = async (caller: Caller, query: string, onPage: (index: number) => Promise<void> = async () => undefined): Promise<Listed[]> => {
    const seen: Listed[] = [];
    let cursor: string | undefined;
    for (let index = 0; ; index++) {
      const { rows, next } = await page(caller, `${query}${cursor ? `&before=${cursor}` : ''}`);
      seen.push(...rows);
      if (!next) return seen;
      cursor = next;
      await onPage(index);
    }
  };

  /**
   * 5,000 one-to-one conversations written in bulk with SQL (each with one inbound message, three
   * per second so that ties are broken by seq; twenty without any message), as ingest leaves them.
   */
  async function seed(workspaceId: string): Promise<string[]> {
    const base = Date.now() - 3_600_000;
    await t.dataSource.query(
      `INSERT INTO conversations (workspace_id, channel, chat_jid, chat_phone, chat_name, last_message_at, last_message_hour, last_seq, last_message_preview, created_at)
       SELECT $1, 'scan', g.phone || '@s.whatsapp.net', g.phone, 'Seed ' || g.i, g.ts, date_trunc('hour', g.ts, 'UTC'), CASE WHEN g.i <= $3 THEN 0 ELSE 1 END,
              CASE WHEN g.i <= $3 THEN '' ELSE 'seed ' || g.i END, CASE WHEN g.i <= $3 THEN g.ts ELSE now() END
         FROM (SELECT i, '9990' || lpad(i::text, 8, '0') AS phone, to_timestamp($2 / 1000.0) - (i / 3) * interval '1 second' AS ts
                 FROM generate_series(1, $4) AS i) g`,
      [workspaceId, base, EMPTY, SEEDED],
    );
    await t.dataSource.query(
      `INSERT INTO messages (workspace_id, conversation_id, channel, external_id, direction, sender_jid, content, status, timestamp, conversation_seq)
       SELECT c.workspace_id, c.id, 'scan', 'SEED' || c.chat_phone, 'inbound', c.chat_jid, 'seed', 'delivered', c.last_message_at, 1
         FROM conversations c WHERE c.workspace_id = $1 AND c.last_seq = 1 ORDER BY random()`,
      [workspaceId],
    );
    await t.dataSource.query(`UPDATE conversations c SET last_message_seq = m.seq FROM messages m WHERE m.conversation_id = c.id AND c.workspace_id = $1`, [
      workspaceId,
    ]);
    const rows: { chat_phone: string }[] = await t.dataSource.query(`SELECT chat_phone FROM conversations WHERE workspace_id = $1`, [workspaceId]);
    return rows.map((row) => row.chat_phone);
  }

  it('walks 5,000 conversations in pages of 100 while inbound messages reorder them: each one exactly once', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const phones = await seed(ws.id);
    expect(phones).toHaveLength(SEEDED);

    // Four writers ingest through the real service (group commit included) into random
    // conversations: half with the current time (to the top of the list), half with a time inside
    // the seeded hour (a conversation moves up within the list, or stays where it is).
    let running = true;
    let ingested = 0;
    const writer = async (): Promise<void> => {
      while (running) {
        const phone = phones[Math.floor(Math.random() * phones.length)]!;
        const timestamp = Math.random() < 0.5 ? new Date() : new Date(Date.now() - Math.floor(Math.random() * 3_600_000));
        await inbox.message(ws.id, { phone, timestamp, content: `live ${ingested}` });
        ingested++;
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    let seen: Listed[];
    try {
      // Let the writers get going before page 1, and make sure they write between all pages.
      while (ingested < 50) await new Promise((resolve) => setTimeout(resolve, 5));
      seen = await walk(keyCaller, '?limit=100', async () => {
        const target = ingested + 10;
        while (ingested < target) await new Promise((resolve) => setTimeout(resolve, 1));
      });
    } finally {
      running = false;
      await Promise.all(writers);
    }

    const counts = new Map<string, number>();
    for (const row of seen) counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    const all: { id: string }[] = await t.dataSource.query(`SELECT id FROM conversations WHERE workspace_id = $1`, [ws.id]);
    const missing = all.filter((row) => !counts.has(row.id));
    expect(missing).toEqual([]);
    expect(seen).toHaveLength(SEEDED);
    // The writers really moved conversations meanwhile (far more than a page).
    expect(ingested).toBeGreaterThan(500);

    // A fresh walk now shows the current order: newest first, the last live message on top.
    const fresh = await walk(keyCaller, '?limit=100');
    expect(fresh).toHaveLength(SEEDED);
    expect(fresh[0]!.last_message_preview).toMatch(/^live /);
  });

  it('keeps its place for a message that took its seq before page 1 but committed after it (writers committing out of order)', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const now = Date.now();
    const phones = Array.from({ length: 12 }, () => randomPhone());
    const ids: string[] = [];
    for (const [i, phone] of phones.entries()) ids.push((await inbox.conversation(ws.id, { phone, timestamp: new Date(now - 100_000 + i * 1000) })).id);
    const late = ids[1]!; // second oldest: on the last page
    // A writer takes a seq for a new message of `late` and moves it to the top, but does not commit yet...
    const writer = t.dataSource.createQueryRunner();
    await writer.connect();
    try {
      await writer.startTransaction();
      const [{ seq }] = await writer.query(
        `INSERT INTO messages (workspace_id, conversation_id, channel, external_id, direction, content, status, timestamp, conversation_seq)
         VALUES ($1, $2, 'scan', $3, 'inbound', 'in flight', 'delivered', now(), 2) RETURNING seq`,
        [ws.id, late, `FLIGHT${now}`],
      );
      await writer.query(
        `UPDATE conversations SET last_message_at = now(), last_message_hour = date_trunc('hour', now(), 'UTC'), last_message_seq = $2, last_seq = 2,
                last_message_preview = 'in flight', updated_at = now() WHERE id = $1`,
        [late, seq],
      );
      // ...while a later writer commits (a higher seq), and page 1 is read.
      await inbox.message(ws.id, { phone: phones[11], timestamp: new Date(now) });
      const first = await page(keyCaller, '?limit=5');
      expect(first.rows.map((row) => row.id)).not.toContain(late);
      await writer.commitTransaction();
      // Its earlier message (where page 1 placed it) changes after page 1, as a receipt or an edit would.
      await t.dataSource.query(`UPDATE messages SET sender_name = 'Ada L.' WHERE conversation_id = $1 AND conversation_seq = 1`, [late]);
      // `late` is on top now, with a seq below page 1's as_of: the walk still lists it once, where page 1 had it.
      const rest: Listed[] = [];
      let cursor = first.next;
      while (cursor) {
        const next = await page(keyCaller, `?limit=5&before=${cursor}`);
        rest.push(...next.rows);
        cursor = next.next;
      }
      expect([...first.rows, ...rest].map((row) => row.id)).toEqual([ids[11], ...ids.slice(0, 11).reverse()]);
      expect((await page(keyCaller, '?limit=1')).rows[0]!.id).toBe(late);
    } finally {
      if (writer.isTransactionActive) await writer.rollbackTransaction();
      await writer.release();
    }
  });

  it('answers the parameter-less list as before: the 30 most recent, X-Next-Cursor when more follow', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const now = Date.now();
    for (let i = 0; i < 32; i++) await inbox.message(ws.id, { timestamp: new Date(now - 100_000 + i * 1000), content: `c${i}` });
    const plain = await page(keyCaller, '');
    expect(plain.rows.map((row) => row.last_message_preview)).toEqual(Array.from({ length: 30 }, (_, i) => `c${31 - i}`));
    expect(plain.next).toEqual(expect.any(String));
    // The cursor goes on where the 30 ended; the last page has no header.
    const rest = await page(keyCaller, `?before=${plain.next}`);
    expect([rest.rows.map((row) => row.last_message_preview), rest.next]).toEqual([['c1', 'c0'], undefined]);
    expect((await page(keyCaller, '?limit=30')).rows).toEqual(plain.rows);
    const all = await page(keyCaller, '?limit=32');
    expect([all.rows.length, all.next]).toEqual([32, undefined]);
  });

  it('combines every filter, on every page', async () => {
    const { ws, owner, ownerCaller, keyCaller } = await workspaceCallers(t);
    const label = '11111111-2222-4333-8444-555555555555';
    const now = Date.now();
    const make = async (name: string, phone: string, offset: number) =>
      inbox.conversation(ws.id, { phone, senderName: name, chatName: name, contact: { phone, name }, timestamp: new Date(now - offset) });
    const ada = await make('Ada Lovelace', '4915110000001', 6000);
    const adam = await make('Adam Smith', '4915110000002', 5000);
    const bob = await make('Bob Ross', '4930200000003', 4000);
    const ida = await make('Ida', '4915110000004', 3000);
    const meta = await inbox.conversation(ws.id, { channel: 'meta', phone: '4915110000005', senderName: 'Ada Meta', timestamp: new Date(now - 2000) });
    await call(t, ownerCaller, 'post', `/api/conversations/${adam.id}/assign`, { user_id: owner.id }).expect(200);
    await call(t, ownerCaller, 'post', `/api/conversations/${ida.id}/read`).expect(200);
    await call(t, ownerCaller, 'patch', `/api/conversations/${bob.id}`, { status: 'pending' }).expect(200);
    await t.dataSource.query(`UPDATE conversations SET label_ids = ARRAY[$1::uuid] WHERE id = ANY($2::uuid[])`, [label, [ada.id, bob.id, meta.id]]);

    const names = async (query: string, caller: Caller = ownerCaller): Promise<string[]> =>
      (await walk(caller, `?limit=1&${query}`))
        .map((row) => row.id)
        .map((id) => ({ [ada.id]: 'ada', [adam.id]: 'adam', [bob.id]: 'bob', [ida.id]: 'ida', [meta.id]: 'meta' })[id]!);
    expect(await names('')).toEqual(['meta', 'ida', 'bob', 'adam', 'ada']);
    expect(await names('status=open')).toEqual(['meta', 'ida', 'adam', 'ada']);
    expect(await names('status=pending')).toEqual(['bob']);
    expect(await names(`label=${label}`)).toEqual(['meta', 'bob', 'ada']);
    expect(await names(`label=${label}&status=open&channel=scan`)).toEqual(['ada']);
    expect(await names('channel=meta')).toEqual(['meta']);
    expect(await names('unread=false')).toEqual(['ida']);
    expect(await names('unread=true&assignee=none')).toEqual(['meta', 'bob', 'ada']);
    expect(await names('assignee=me')).toEqual(['adam']);
    // q: a part of the name, any case, or digits of the number (written any way).
    expect(await names('q=ADA')).toEqual(['meta', 'adam', 'ada']);
    expect(await names('q=ada&channel=scan&assignee=none')).toEqual(['ada']);
    expect(await names(`q=${encodeURIComponent('+49 30')}`)).toEqual(['bob']);
    expect(await names('q=%25')).toEqual([]);
    expect(await names('q=')).toEqual(['meta', 'ida', 'bob', 'adam', 'ada']);
    expect(await names(`q=ida&label=${label}`)).toEqual([]);
    // The key sees the same; `assignee=me` needs a person.
    expect(await names('status=open&unread=true', keyCaller)).toEqual(['meta', 'adam', 'ada']);
  });

  it('refuses wrong parameters with 400 naming them', async () => {
    const { ownerCaller, keyCaller } = await workspaceCallers(t);
    const bad = async (query: string, caller: Caller = ownerCaller): Promise<string> => {
      const res = await call(t, caller, 'get', `/api/conversations${query}`);
      expect(res.status).toBe(400);
      return res.body.error as string;
    };
    expect(await bad('?status=archived')).toBe('status must be open, pending, snoozed or closed');
    expect(await bad('?status=')).toBe('status must be open, pending, snoozed or closed');
    expect(await bad('?label=blue')).toBe('label must be a label id');
    expect(await bad('?channel=sms')).toBe('channel must be scan or meta');
    expect(await bad('?unread=yes')).toBe('unread must be true or false');
    for (const limit of ['0', '101', 'ten', '', '1.5']) expect(await bad(`?limit=${limit}`)).toBe('limit must be an integer between 1 and 100');
    for (const cursor of ['', 'abc', Buffer.from('1:2:3').toString('base64url'), Buffer.from(`1:2:3:4:${randomPhone()}`).toString('base64url')]) {
      expect(await bad(`?before=${cursor}`)).toBe('invalid cursor');
    }
    expect(await bad(`?q=${'x'.repeat(201)}`)).toBe('q must be at most 200 characters');
    expect(await bad('?q=a&q=b')).toBe('q must be given once, as text');
    expect(await bad('?assignee=me', keyCaller)).toMatch(/assignee=me needs a signed-in user/);
  });
});
