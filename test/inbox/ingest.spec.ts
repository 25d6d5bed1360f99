import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { RedisKeys } from '../../src/infra/redis/redis.module.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { InboxEvents } from '../../src/modules/inbox/inbox-events.service.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { InboxFactories, randomLid, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { inboxState } from './inbox-state.js';
import { eventually } from '../chat/chat-support.js';

describe('inbox ingest', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let ingest: InboxIngestService;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    ingest = t.app.get(InboxIngestService);
  });
  /** The workspace's replay stream once it holds `count` entries. */
  const streamOf = (workspaceId: string, count: number): Promise<[string, string[]][]> => {
    const key = t.app.get(RedisKeys).key('events', workspaceId, 'stream');
    return eventually(`${count} live events`, async () => {
      const entries = await t.redis.xrange(key, '-', '+');
      return entries.length >= count ? entries : undefined;
    });
  };
  // Hooks live on the shared app: each test removes what it registered, so no later test runs
  // with a leftover (transactional) hook and the order of tests does not matter.
  const unregister: (() => void)[] = [];
  afterEach(() => {
    unregister.splice(0).forEach((remove) => remove());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a new message, its conversation and its contact', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const result = await inbox.message(ws.id, { phone, senderName: 'Ada', content: 'hi there' });
    expect(result.created).toBe(true);
    expect(result.message).toMatchObject({ direction: 'inbound', content: 'hi there', status: 'delivered', externalId: expect.any(String) });
    expect(result.conversation).toMatchObject({
      chatJid: `${phone}@s.whatsapp.net`,
      isGroup: false,
      chatPhone: phone,
      chatName: 'Ada',
      unreadCount: 1,
      lastMessagePreview: 'hi there',
    });
    const contacts: { phone: string; name: string; id: string }[] = await t.dataSource.query('SELECT id, phone, name FROM contacts WHERE workspace_id = $1', [
      ws.id,
    ]);
    expect(contacts).toEqual([{ id: result.conversation.contactId, phone, name: 'Ada' }]);
  });

  it('is idempotent: the same channel id twice in a row stores one message and changes nothing', async () => {
    const ws = await t.factories.workspace();
    const input = inbox.inbound({ content: 'once' });
    const first = await ingest.ingest(ws.id, input);
    const second = await ingest.ingest(ws.id, { ...input, content: 'changed?' });
    expect(second.created).toBe(false);
    expect(second.message.id).toBe(first.message.id);
    expect(second.message.content).toBe('once');
    expect(second.conversation.unreadCount).toBe(1);
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(1);
  });

  it('is idempotent for contacts too: a repeat carrying contact data the contact lacks changes nothing', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    // First delivered knowing only the phone, with no name anywhere.
    const input = inbox.inbound({ phone, senderName: '', contact: { phone } });
    const first = await ingest.ingest(ws.id, input);
    const before = await inboxState(t, ws.id);
    expect(before.contacts).toEqual([expect.objectContaining({ phone, lid: null, name: '' })]);

    // Redelivered (same channel id) after the channel learnt the LID and the name.
    const repeat = await ingest.ingest(ws.id, { ...input, senderName: 'Ada', chatName: 'Ada', contact: { phone, lid: randomLid(), name: 'Ada' } });
    expect(repeat.created).toBe(false);
    expect(repeat.message.id).toBe(first.message.id);
    expect(await inboxState(t, ws.id)).toEqual(before);
  });

  it('is idempotent after the contact was deleted: a repeat does not bring it back', async () => {
    const ws = await t.factories.workspace();
    const input = inbox.inbound({ content: 'before the delete' });
    const first = await ingest.ingest(ws.id, input);
    await t.dataSource.query('DELETE FROM contacts WHERE workspace_id = $1 AND id = $2', [ws.id, first.conversation.contactId]);
    const before = await inboxState(t, ws.id);
    expect(before.contacts).toEqual([]);
    expect(before.conversations[0]).toMatchObject({ contact_id: null });

    const repeat = await ingest.ingest(ws.id, input);
    expect(repeat.created).toBe(false);
    expect(await inboxState(t, ws.id)).toEqual(before);
  });

  it('is idempotent under concurrency: the same id ten times at once gives one row and no error', async () => {
    const ws = await t.factories.workspace();
    const input = inbox.inbound();
    const results = await Promise.all(Array.from({ length: 10 }, () => ingest.ingest(ws.id, input)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.message.id)).size).toBe(1);
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(1);
    expect(await inbox.count('conversations WHERE workspace_id = $1', [ws.id])).toBe(1);
    expect(await inbox.count('contacts WHERE workspace_id = $1', [ws.id])).toBe(1);
    const [conversation] = await t.dataSource.query('SELECT unread_count FROM conversations WHERE workspace_id = $1', [ws.id]);
    expect(conversation.unread_count).toBe(1);
  });

  it('keeps one conversation and one contact when a new chat receives many messages at once', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const results = await Promise.all(Array.from({ length: 12 }, () => inbox.message(ws.id, { phone })));
    expect(results.every((r) => r.created)).toBe(true);
    expect(await inbox.count('conversations WHERE workspace_id = $1', [ws.id])).toBe(1);
    expect(await inbox.count('contacts WHERE workspace_id = $1', [ws.id])).toBe(1);
    const [conversation] = await t.dataSource.query('SELECT unread_count, contact_id FROM conversations WHERE workspace_id = $1', [ws.id]);
    expect(conversation.unread_count).toBe(12);
    expect(conversation.contact_id).not.toBeNull();
  });

  it('treats a group as one conversation with is_group and no contact, whoever writes', async () => {
    const ws = await t.factories.workspace();
    const first = await ingest.ingest(ws.id, inbox.groupInbound('120363000000000001'));
    const second = await ingest.ingest(ws.id, inbox.groupInbound('120363000000000001', { senderName: 'Carol' }));
    expect(second.conversation.id).toBe(first.conversation.id);
    expect(second.conversation).toMatchObject({ isGroup: true, contactId: null, chatPhone: '', chatName: 'Team chat', unreadCount: 2 });
    expect(second.message).toMatchObject({ senderName: 'Carol' });
    expect(await inbox.count('contacts WHERE workspace_id = $1', [ws.id])).toBe(0);
  });

  it('recognises a group by its @g.us jid alone, without the isGroup flag', async () => {
    const ws = await t.factories.workspace();
    // A channel that does not set isGroup, and even names a person as the contact.
    const input = inbox.groupInbound('120363000000000002', { isGroup: undefined, contact: { phone: randomPhone(), name: 'Bob' } });
    const result = await ingest.ingest(ws.id, input);
    expect(result.conversation).toMatchObject({ chatJid: '120363000000000002@g.us', isGroup: true, contactId: null, chatPhone: '' });
    const [stored] = await t.dataSource.query('SELECT is_group, contact_id FROM conversations WHERE workspace_id = $1', [ws.id]);
    expect(stored).toEqual({ is_group: true, contact_id: null });
    expect(await inbox.count('contacts WHERE workspace_id = $1', [ws.id])).toBe(0);
  });

  it('keeps the same chat jid apart per channel and per workspace', async () => {
    const a = await t.factories.workspace();
    const b = await t.factories.workspace();
    const phone = randomPhone();
    const scan = await inbox.message(a.id, { phone });
    const meta = await inbox.message(a.id, { phone, channel: 'meta' });
    const other = await inbox.message(b.id, { phone, externalId: scan.message.externalId! });
    expect(meta.conversation.id).not.toBe(scan.conversation.id);
    expect(meta.conversation.contactId).toBe(scan.conversation.contactId);
    expect(other.created).toBe(true);
    expect(other.conversation.id).not.toBe(scan.conversation.id);
  });

  it('moves last_message_at and the preview only forward; outbound echoes do not count as unread', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const now = Date.now();
    await inbox.message(ws.id, { phone, content: 'newest', timestamp: new Date(now) });
    const late = await inbox.message(ws.id, { phone, content: 'older, arrived late', timestamp: new Date(now - 60_000) });
    expect(late.conversation.lastMessagePreview).toBe('newest');
    expect(new Date(late.conversation.lastMessageAt).getTime()).toBe(now);
    const echo = await inbox.message(ws.id, { phone, direction: 'outbound', content: 'sent from the phone', timestamp: new Date(now + 1000) });
    expect(echo.message.status).toBe('sent');
    expect(echo.conversation).toMatchObject({ unreadCount: 2, lastMessagePreview: 'sent from the phone' });
    const image = await inbox.message(ws.id, {
      phone,
      type: 'image',
      content: '',
      media: { url: '/api/media/x/y.jpg', mimeType: 'image/jpeg', fileSize: 10 },
      timestamp: new Date(now + 2000),
    });
    expect(image.conversation.lastMessagePreview).toBe('[image]');
  });

  it('reopens a closed conversation when a new inbound message arrives', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    const first = await inbox.message(ws.id, { phone });
    await t.dataSource.query(`UPDATE conversations SET status = 'closed' WHERE id = $1`, [first.conversation.id]);
    const next = await inbox.message(ws.id, { phone });
    expect(next.conversation.status).toBe('open');
  });

  it('publishes live events after commit, for new messages only', async () => {
    const ws = await t.factories.workspace();
    const live = t.app.get(LiveEventsService);
    // An open Console (a workspace nobody watches gets no live events: ingest-group.spec).
    await live.markWatched([ws.id]);
    const spy = jest.spyOn(live, 'publishAll');
    try {
      const input = inbox.inbound({ content: 'live' });
      const first = await ingest.ingest(ws.id, input);
      await ingest.ingest(ws.id, input);
      // Published after the caller's answer (ingest does not wait for the stream). Inbox events
      // go out in call order, so once this barrier is in the stream, whatever the repeat would
      // have published is there too.
      await t.app.get(InboxEvents).messageUpdated(ws.id, first.message, first.conversation);
      const key = t.app.get(RedisKeys).key('events', ws.id, 'stream');
      const entries = await eventually('the barrier in the stream', async () => {
        const all = await t.redis.xrange(key, '-', '+');
        return all.some(([, fields]) => fields.includes('message.updated')) ? all : undefined;
      });
      const stream = entries.slice(0, -1);
      const mine = spy.mock.calls
        .filter(([workspaceId]) => workspaceId === ws.id)
        .flatMap(([, events]) => events)
        .slice(0, -1);
      expect(mine.map(({ name }) => name)).toEqual(['message.created', 'conversation.updated']);
      expect(mine[0]!.data).toMatchObject({ id: first.message.id, chat_message_id: input.externalId, content: 'live', direction: 'inbound' });
      expect(mine[1]!.data).toMatchObject({ id: first.conversation.id, unread_count: 1 });
      // Sent together (one round trip), and stored (and delivered) in this order.
      expect(stream.map(([, fields]) => fields[fields.indexOf('n') + 1])).toEqual(['message.created', 'conversation.updated']);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps live events in the order they were caused: an update right after ingest() follows its message', async () => {
    const ws = await t.factories.workspace();
    const events = t.app.get(InboxEvents);
    await t.app.get(LiveEventsService).markWatched([ws.id]);
    const first = await ingest.ingest(ws.id, inbox.inbound({ content: 'then read' }));
    // A receipt and an assignment as soon as the caller has its answer: ingest's own events wait
    // for a round trip (which workspaces are watched), these do not, and still come after them.
    await events.messageUpdated(ws.id, { ...first.message, status: 'read' }, first.conversation);
    await events.conversationUpdated(ws.id, { ...first.conversation, unreadCount: 0 });
    const names = (await streamOf(ws.id, 4)).map(([, fields]) => fields[fields.indexOf('n') + 1]);
    expect(names).toEqual(['message.created', 'conversation.updated', 'message.updated', 'conversation.updated']);
  });

  it('runs ingest hooks inside the transaction for new messages only, and rolls back with them', async () => {
    const ws = await t.factories.workspace();
    const hooks = t.app.get(IngestHooks);
    const seen: string[] = [];
    let fail = false;
    unregister.push(
      hooks.register({
        inTransaction: async ({ workspaceId, message, tx }) => {
          if (workspaceId !== ws.id) return;
          // What an outbox hook does: write in the same transaction.
          const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE id = $1', [message.id]);
          seen.push(`in:${row!.n}`);
          if (fail) throw new Error('outbox write failed');
        },
        afterCommit: async ({ workspaceId, message }) => {
          if (workspaceId === ws.id) seen.push(`after:${message.content}`);
        },
      }),
    );
    const input = inbox.inbound({ content: 'hooked' });
    await ingest.ingest(ws.id, input);
    await ingest.ingest(ws.id, input);
    expect(seen).toEqual(['in:1', 'after:hooked']);

    fail = true;
    await expect(inbox.message(ws.id, { content: 'rolled back' })).rejects.toThrow('outbox write failed');
    expect(await inbox.count(`messages WHERE workspace_id = $1 AND content = 'rolled back'`, [ws.id])).toBe(0);
  });

  it('stays idempotent under concurrency when hooks make ingest transactional', async () => {
    const ws = await t.factories.workspace();
    const hooks = t.app.get(IngestHooks);
    let calls = 0;
    unregister.push(
      hooks.register({
        inTransaction: async ({ workspaceId }) => {
          if (workspaceId === ws.id) calls++;
        },
      }),
    );
    const input = inbox.inbound();
    const results = await Promise.all(Array.from({ length: 8 }, () => ingest.ingest(ws.id, input)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(calls).toBe(1);
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(1);
  });

  it('rejects a malformed inbound message (a channel bug) without writing', async () => {
    const ws = await t.factories.workspace();
    await expect(ingest.ingest(ws.id, { ...inbox.inbound(), externalId: '' })).rejects.toThrow('externalId');
    await expect(ingest.ingest(ws.id, { ...inbox.inbound(), timestamp: new Date('nope') })).rejects.toThrow('timestamp');
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(0);
  });

  it('refuses a time past year 9999 before it joins a group: the calls beside it commit', async () => {
    const ws = await t.factories.workspace();
    const phone = randomPhone();
    await inbox.message(ws.id, { phone });
    const late = new Date(Date.UTC(10_000, 0, 1));
    const calls = [inbox.inbound({ phone }), { ...inbox.inbound({ phone }), timestamp: late }, inbox.inbound({ phone })];
    const settled = await Promise.allSettled(calls.map((input) => ingest.ingest(ws.id, input, { hooks: false })));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toEqual(new Error('inbound message: timestamp must fall in the years 0001 to 9999'));
    expect(await inbox.count('messages WHERE workspace_id = $1', [ws.id])).toBe(3);
    // The last second of 9999 is still a time.
    await expect(ingest.ingest(ws.id, { ...inbox.inbound({ phone }), timestamp: new Date(late.getTime() - 1) })).resolves.toMatchObject({ created: true });
  });
});
