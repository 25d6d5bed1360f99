import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ScanMessage } from '../../src/modules/chat/driver/scan-driver.port.js';
import { createUpdatesTestApp, type UpdatesTestApp } from '../inbox/message-updates-support.js';
import { randomPhone } from '../support/inbox-factories.js';
import { dataOf, listenUrl, openSse } from '../support/sse-client.js';
import { addWebhook, ownedWorkspace, Receiver } from '../webhooks/webhook-support.js';
import { eventually, scanMessage } from './inbound-support.js';

type ApiMessage = Record<string, unknown> & { chat_message_id: string; reactions: { emoji: string; sender_jid: string }[] };

// Reactions, revokes and edits of the scan channel, as the driver hands them to the inbox: they
// change the message they name, whichever arrives first, and are never messages themselves.
describe('scan inbound: reactions, revokes and edits', () => {
  let s: UpdatesTestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    [s, receiver] = await Promise.all([createUpdatesTestApp({ pending: { ttlMs: 60_000, sweepIntervalMs: 100 } }), Receiver.start()]);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  /** A workspace whose `scan.chat` webhook posts to the receiver, and the owner's requests. */
  const workspace = async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/hook-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['scan.chat'] });
    const deliver = (...messages: ScanMessage[]) => s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages });
    const messagesOf = async (externalId: string): Promise<ApiMessage[]> => {
      const [row] = (await s.t.dataSource.query('SELECT conversation_id FROM messages WHERE workspace_id = $1 AND external_id = $2', [
        owned.workspaceId,
        externalId,
      ])) as { conversation_id: string }[];
      const res = await owned.as('get', `/api/conversations/${row!.conversation_id}/messages`);
      expect(res.status).toBe(200);
      return res.body.messages as ApiMessage[];
    };
    /** The message as the API shows it, once it is stored. */
    const shown = async (externalId: string): Promise<ApiMessage | undefined> => (await messagesOf(externalId)).find((m) => m.chat_message_id === externalId);
    const webhookEvents = async (): Promise<number> =>
      ((await s.t.dataSource.query('SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1', [owned.workspaceId])) as { n: number }[])[0]!.n;
    const messageRows = async (): Promise<number> =>
      ((await s.t.dataSource.query('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1', [owned.workspaceId])) as { n: number }[])[0]!.n;
    return { ...owned, path, deliver, messagesOf, shown, webhookEvents, messageRows };
  };

  // In the target's chat; a revoke and an edit by the target's own sender.
  const react = (workspaceId: string, target: ScanMessage, senderJid: string, emoji: string) =>
    s.handler.handle(workspaceId, {
      type: 'reactions',
      reactions: [{ chatJid: target.chatJid, chatJidAlt: null, externalId: target.externalId, senderJid, fromMe: false, emoji }],
    });
  const revoke = (workspaceId: string, target: ScanMessage, senderJid = target.senderJid) =>
    s.handler.handle(workspaceId, {
      type: 'revokes',
      revokes: [{ chatJid: target.chatJid, chatJidAlt: null, externalId: target.externalId, senderJid, fromMe: target.fromMe }],
    });
  const edit = (workspaceId: string, target: ScanMessage, content: string) =>
    s.handler.handle(workspaceId, {
      type: 'edits',
      edits: [
        {
          chatJid: target.chatJid,
          chatJidAlt: null,
          externalId: target.externalId,
          content,
          senderJid: target.senderJid,
          senderJidAlt: null,
          fromMe: target.fromMe,
        },
      ],
    });

  it('a reaction to a stored message is shown under it and published live; a changed emoji replaces it, an empty one removes it', async () => {
    const w = await workspace();
    const target = scanMessage({ content: 'the offer' });
    await w.deliver(target);
    const stream = await openSse(`${await listenUrl(s.t.app)}/api/events`, { Cookie: w.cookie, 'X-Tenant-ID': w.workspaceId });
    try {
      await react(w.workspaceId, target, target.senderJid, '👍');
      expect(await w.shown(target.externalId)).toMatchObject({
        content: 'the offer',
        reactions: [{ emoji: '👍', sender_jid: target.senderJid }],
        edited: false,
        deleted: false,
      });
      await stream.waitFor('message.updated', (c) => c.events.some((e) => e.event === 'message.updated'));
      expect(dataOf(stream.events.find((e) => e.event === 'message.updated')!)).toMatchObject({
        chat_message_id: target.externalId,
        reactions: [{ emoji: '👍', sender_jid: target.senderJid }],
      });

      await react(w.workspaceId, target, target.senderJid, '❤️');
      expect((await w.shown(target.externalId))!.reactions).toEqual([{ emoji: '❤️', sender_jid: target.senderJid }]);
      // The same emoji again (a redelivery) changes nothing and publishes nothing.
      const changes = s.committed.length;
      await react(w.workspaceId, target, target.senderJid, '❤️');
      expect(s.committed.length).toBe(changes);
      await react(w.workspaceId, target, target.senderJid, '');
      expect((await w.shown(target.externalId))!.reactions).toEqual([]);
    } finally {
      stream.close();
    }
    expect(await w.messageRows()).toBe(1);
  });

  it('in a group each person keeps their own reaction; one from another of their devices replaces theirs', async () => {
    const w = await workspace();
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    const [ada, bob] = [`${randomPhone()}@s.whatsapp.net`, `${randomPhone()}@s.whatsapp.net`];
    const target = scanMessage({ chatJid: group, isGroup: true, senderJid: ada, content: 'lunch at 12?' });
    await w.deliver(target);
    await react(w.workspaceId, target, ada, '👍');
    await react(w.workspaceId, target, bob, '😂');
    await react(w.workspaceId, target, bob.replace('@', ':3@'), '🙏');
    expect((await w.shown(target.externalId))!.reactions).toEqual([
      { emoji: '👍', sender_jid: ada },
      { emoji: '🙏', sender_jid: bob },
    ]);
  });

  it('a reaction that arrives before its message waits for it and is applied within seconds of its arrival, in order', async () => {
    const w = await workspace();
    const target = scanMessage({ content: 'photo of the invoice' });
    const stranger = `${randomPhone()}@s.whatsapp.net`;
    await react(w.workspaceId, target, target.senderJid, '👍');
    await react(w.workspaceId, target, target.senderJid, '🔥');
    await react(w.workspaceId, target, stranger, '😮');
    expect(await s.waiting(w.workspaceId)).toBe(3);
    expect(await w.messageRows()).toBe(0);

    await w.deliver(target);
    const arrived = Date.now();
    const message = await eventually('the waiting reactions', async () => {
      const shown = await w.shown(target.externalId);
      return shown && shown.reactions.length === 2 ? shown : null;
    });
    expect(Date.now() - arrived).toBeLessThan(3000);
    expect(message.reactions).toEqual([
      { emoji: '🔥', sender_jid: target.senderJid },
      { emoji: '😮', sender_jid: stranger },
    ]);
    expect(await s.waiting(w.workspaceId)).toBe(0);
  });

  it('a reaction arriving while earlier ones still wait for the sweep queues behind them, so the latest wins', async () => {
    const w = await workspace();
    const target = scanMessage();
    // Stored with the sweep far off: the earlier reaction still waits when the later one arrives.
    await s.sweeper.onApplicationShutdown();
    try {
      await react(w.workspaceId, target, target.senderJid, '👍');
      await w.deliver(target);
      await react(w.workspaceId, target, target.senderJid, '❤️');
      expect(await s.waiting(w.workspaceId)).toBe(2);
      await s.sweeper.sweep();
    } finally {
      s.sweeper.onApplicationBootstrap();
    }
    expect((await w.shown(target.externalId))!.reactions).toEqual([{ emoji: '❤️', sender_jid: target.senderJid }]);
  });

  it('a revoke marks its message deleted and keeps its content, before or after the message arrives', async () => {
    const w = await workspace();
    const early = scanMessage({ content: 'sent to the wrong chat' });
    const late = scanMessage({ phone: early.chatJid.split('@')[0], content: 'oops, also this' });
    await w.deliver(early);
    await revoke(w.workspaceId, early);
    await revoke(w.workspaceId, late);
    expect(await w.shown(early.externalId)).toMatchObject({ content: 'sent to the wrong chat', deleted: true, edited: false });

    await w.deliver(late);
    await eventually('the waiting revoke', async () => (await w.shown(late.externalId))?.deleted === true);
    expect(await w.shown(late.externalId)).toMatchObject({ content: 'oops, also this', deleted: true });
    expect(await w.messageRows()).toBe(2);
    // The list previews the latest message as WhatsApp does once it is deleted.
    const list = await w.as('get', '/api/conversations');
    expect(list.body[0]).toMatchObject({ last_message_preview: 'This message was deleted' });
  });

  it('an edit replaces the text and marks it edited, before or after the message arrives; the preview follows the latest message', async () => {
    const w = await workspace();
    const phone = randomPhone();
    const first = scanMessage({ phone, content: 'teh price is 10' });
    const second = scanMessage({ phone, content: 'see yuo', timestamp: new Date(first.timestamp.getTime() + 1000) });
    await w.deliver(first);
    await edit(w.workspaceId, first, 'the price is 10');
    expect(await w.shown(first.externalId)).toMatchObject({ content: 'the price is 10', edited: true, deleted: false });

    await edit(w.workspaceId, second, 'see you');
    await w.deliver(second);
    await eventually('the waiting edit', async () => (await w.shown(second.externalId))?.edited === true);
    expect(await w.shown(second.externalId)).toMatchObject({ content: 'see you', edited: true });
    const list = await w.as('get', '/api/conversations');
    expect(list.body[0]).toMatchObject({ last_message_preview: 'see you' });
  });

  it('no reaction, revoke or edit is a message: no row, no scan.chat, no ingest hook; only the messages themselves make one', async () => {
    const w = await workspace();
    const before = scanMessage({ content: 'first' });
    const after = scanMessage({ phone: before.chatJid.split('@')[0], content: 'second' });
    await react(w.workspaceId, before, before.senderJid, '👍');
    await edit(w.workspaceId, before, 'first!');
    await w.deliver(before, after);
    await react(w.workspaceId, after, after.senderJid, '🎉');
    await revoke(w.workspaceId, after);
    await edit(w.workspaceId, after, 'second!');
    await eventually('the waiting updates', async () => (await s.waiting(w.workspaceId)) === 0);

    expect(await w.messageRows()).toBe(2);
    expect(await w.webhookEvents()).toBe(2);
    await eventually('both scan.chat posts', async () => receiver.at(w.path).length === 2);
    expect(receiver.at(w.path).map((r) => (JSON.parse(r.body.toString('utf8')) as { chat_message_id: string }).chat_message_id)).toEqual(
      expect.arrayContaining([before.externalId, after.externalId]),
    );
    expect(s.hook.afterCommit.filter((e) => e.workspaceId === w.workspaceId)).toHaveLength(2);
    expect(await w.messagesOf(before.externalId)).toEqual([
      expect.objectContaining({
        chat_message_id: after.externalId,
        content: 'second!',
        reactions: [{ emoji: '🎉', sender_jid: after.senderJid }],
        deleted: true,
        edited: true,
      }),
      expect.objectContaining({
        chat_message_id: before.externalId,
        content: 'first!',
        reactions: [{ emoji: '👍', sender_jid: before.senderJid }],
        edited: true,
      }),
    ]);
  });
});
