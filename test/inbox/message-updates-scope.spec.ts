import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { ScanMessage } from '../../src/modules/chat/driver/scan-driver.port.js';
import { PendingMessageUpdatesRepository } from '../../src/modules/inbox/messages/pending-message-updates.repository.js';
import { eventually, scanMessage } from '../chat/inbound-support.js';
import { messageId, randomLid, randomPhone } from '../support/inbox-factories.js';
import { createUpdatesTestApp, type UpdatesTestApp } from './message-updates-support.js';

/** Where an update was sent and by whom, as the driver hands it over. */
interface From {
  chatJid: string;
  chatJidAlt?: string | null;
  senderJid: string;
  senderJidAlt?: string | null;
  fromMe?: boolean;
}

const OWN = '15550109999@s.whatsapp.net';
const phoneJid = (phone: string): string => `${phone}@s.whatsapp.net`;
const lidJid = (lid: string): string => `${lid}@lid`;
/** The peer of a one-to-one chat, writing in it. */
const peer = (jid: string, alt: string | null = null): From => ({ chatJid: jid, chatJidAlt: alt, senderJid: jid, senderJidAlt: alt });
/** This number (from the phone), in the chat `chatJid`. */
const us = (chatJid: string): From => ({ chatJid, senderJid: OWN, fromMe: true });

// A channel's reaction, edit or revoke names its target by the channel's id, which the sending
// device chooses: it acts only on a message of the chat it was sent in, an edit only on its
// writer's message, a 1:1 revoke only on its own side's (scan events through the inbound handler).
describe('message updates: only the chat’s messages, only their writers', () => {
  let s: UpdatesTestApp;
  beforeAll(async () => {
    s = await createUpdatesTestApp({ pending: { ttlMs: 60_000, sweepIntervalMs: 100 }, recordChanges: false });
  });
  afterAll(async () => {
    await s?.close();
  });

  const workspace = async (): Promise<string> => (await s.t.factories.workspaceWithOwner()).workspace.id;
  const deliver = (ws: string, ...messages: ScanMessage[]) => s.handler.handle(ws, { type: 'messages', kind: 'notify', messages });
  const source = (from: From) => ({ chatJid: from.chatJid, chatJidAlt: from.chatJidAlt ?? null, senderJid: from.senderJid, fromMe: from.fromMe ?? false });
  const react = (ws: string, externalId: string, from: From, emoji: string) =>
    s.handler.handle(ws, { type: 'reactions', reactions: [{ ...source(from), externalId, emoji }] });
  const revoke = (ws: string, externalId: string, from: From) => s.handler.handle(ws, { type: 'revokes', revokes: [{ ...source(from), externalId }] });
  const edit = (ws: string, externalId: string, from: From, content: string) =>
    s.handler.handle(ws, { type: 'edits', edits: [{ ...source(from), senderJidAlt: from.senderJidAlt ?? null, externalId, content }] });
  const row = async (ws: string, externalId: string): Promise<Record<string, unknown>> =>
    (
      (await s.t.dataSource.query(
        `SELECT content, reactions, edited_at IS NOT NULL AS edited, deleted_at IS NOT NULL AS deleted FROM messages
          WHERE workspace_id = $1 AND external_id = $2`,
        [ws, externalId],
      )) as Record<string, unknown>[]
    )[0]!;
  const untouched = (content: string) => ({ content, reactions: [], edited: false, deleted: false });

  it('a reaction, edit or revoke from another chat naming a message changes nothing, before or after the message arrives', async () => {
    const ws = await workspace();
    const [ada, bob] = [randomPhone(), randomPhone()];
    const message = scanMessage({ phone: ada, content: 'for Ada only' });
    await deliver(ws, message);
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    for (const from of [peer(phoneJid(bob)), { chatJid: group, senderJid: phoneJid(ada) }]) {
      await react(ws, message.externalId, from, '👍');
      await edit(ws, message.externalId, from, 'hijacked');
      await revoke(ws, message.externalId, from);
    }
    expect(await row(ws, message.externalId)).toEqual(untouched('for Ada only'));
    // Refused, not waiting for a message that will never be theirs.
    expect(await s.waiting(ws)).toBe(0);

    // Bob's updates arrive first; Ada's message with that id later: they wait, then are refused.
    const early = scanMessage({ phone: ada, content: 'also for Ada' });
    await react(ws, early.externalId, peer(phoneJid(bob)), '😈');
    await edit(ws, early.externalId, peer(phoneJid(bob)), 'hijacked');
    await revoke(ws, early.externalId, peer(phoneJid(bob)));
    expect(await s.waiting(ws)).toBe(3);
    await deliver(ws, early);
    await eventually('the waiting updates', async () => (await s.waiting(ws)) === 0);
    expect(await row(ws, early.externalId)).toEqual(untouched('also for Ada'));

    // Ada's own, in her chat.
    await react(ws, message.externalId, peer(message.chatJid), '❤️');
    await edit(ws, message.externalId, peer(message.chatJid), 'for Ada, edited');
    await revoke(ws, message.externalId, peer(message.chatJid));
    expect(await row(ws, message.externalId)).toEqual({
      content: 'for Ada, edited',
      reactions: [{ emoji: '❤️', sender_jid: message.chatJid }],
      edited: true,
      deleted: true,
    });
  });

  it('in a group, only a message’s writer edits it (under either of their jids); any member may delete it (an admin)', async () => {
    const ws = await workspace();
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    const [ada, bob, adaLid] = [randomPhone(), randomPhone(), randomLid()];
    const inGroup = (senderJid: string, senderJidAlt: string | null = null): From => ({ chatJid: group, senderJid, senderJidAlt });
    const message = scanMessage({ chatJid: group, isGroup: true, senderJid: phoneJid(ada), content: 'lunch at 12' });
    const ours = scanMessage({ chatJid: group, isGroup: true, fromMe: true, senderJid: OWN, content: 'I will be there' });
    await deliver(ws, message, ours);

    await edit(ws, message.externalId, inGroup(phoneJid(bob)), 'lunch is cancelled');
    await edit(ws, message.externalId, us(group), 'lunch is cancelled');
    await edit(ws, ours.externalId, inGroup(phoneJid(ada)), 'I will not be there');
    expect(await row(ws, message.externalId)).toEqual(untouched('lunch at 12'));
    expect(await row(ws, ours.externalId)).toEqual(untouched('I will be there'));

    // Ada, addressed by her LID with her phone as the other form; then ourselves.
    await edit(ws, message.externalId, inGroup(`${adaLid}:4@lid`, phoneJid(ada)), 'lunch at 1');
    await edit(ws, ours.externalId, us(group), 'I will be late');
    expect(await row(ws, message.externalId)).toMatchObject({ content: 'lunch at 1', edited: true });
    expect(await row(ws, ours.externalId)).toMatchObject({ content: 'I will be late', edited: true });

    await revoke(ws, message.externalId, inGroup(phoneJid(bob)));
    expect(await row(ws, message.externalId)).toMatchObject({ deleted: true });
  });

  it('in a one-to-one chat, the peer deletes or edits only their own messages and this number only its own', async () => {
    const ws = await workspace();
    const chat = phoneJid(randomPhone());
    const theirs = scanMessage({ chatJid: chat, senderJid: chat, content: 'call me' });
    const ours = scanMessage({ chatJid: chat, senderJid: OWN, fromMe: true, content: 'the offer: 10 EUR' });
    await deliver(ws, theirs, ours);

    await revoke(ws, ours.externalId, peer(chat));
    await edit(ws, ours.externalId, peer(chat), 'the offer: 1 EUR');
    await revoke(ws, theirs.externalId, us(chat));
    await edit(ws, theirs.externalId, us(chat), 'never mind');
    expect(await row(ws, ours.externalId)).toEqual(untouched('the offer: 10 EUR'));
    expect(await row(ws, theirs.externalId)).toEqual(untouched('call me'));

    await revoke(ws, theirs.externalId, peer(chat));
    await edit(ws, ours.externalId, us(chat), 'the offer: 9 EUR');
    await revoke(ws, ours.externalId, us(chat));
    expect(await row(ws, theirs.externalId)).toMatchObject({ content: 'call me', deleted: true });
    expect(await row(ws, ours.externalId)).toMatchObject({ content: 'the offer: 9 EUR', edited: true, deleted: true });
  });

  it('a person’s chat is theirs under either jid: by the other form the channel gives, or by their contact’s phone and LID', async () => {
    const ws = await workspace();
    // Stored under the phone jid; its contact learns the LID.
    const [phone, lid] = [randomPhone(), randomLid()];
    const byPhone = scanMessage({ phone, content: 'by phone' });
    await deliver(ws, byPhone);
    await s.handler.handle(ws, { type: 'lid-mappings', mappings: [{ lid: lidJid(lid), phone: phoneJid(phone) }] });
    await react(ws, byPhone.externalId, peer(lidJid(lid)), '👍');
    await edit(ws, byPhone.externalId, peer(`${lid}:2@lid`), 'by phone, edited by LID');
    expect(await row(ws, byPhone.externalId)).toMatchObject({
      content: 'by phone, edited by LID',
      reactions: [{ emoji: '👍', sender_jid: lidJid(lid) }],
      edited: true,
    });

    // Stored under the LID (no phone known yet); the update comes by phone with the LID beside it.
    const [otherPhone, otherLid] = [randomPhone(), randomLid()];
    const byLid = scanMessage({ chatJid: lidJid(otherLid), senderJid: lidJid(otherLid), content: 'by LID' });
    await deliver(ws, byLid);
    await react(ws, byLid.externalId, peer(phoneJid(otherPhone)), '🙃');
    expect(await row(ws, byLid.externalId)).toEqual(untouched('by LID'));
    await react(ws, byLid.externalId, peer(phoneJid(otherPhone), lidJid(otherLid)), '🎉');
    expect((await row(ws, byLid.externalId)).reactions).toEqual([{ emoji: '🎉', sender_jid: phoneJid(otherPhone) }]);

    // A group member by LID, whose message came by phone: their contact pairs the two.
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    const inGroup = scanMessage({ chatJid: group, isGroup: true, senderJid: phoneJid(phone), content: 'in the group' });
    await deliver(ws, inGroup);
    await edit(ws, inGroup.externalId, { chatJid: group, senderJid: lidJid(lid) }, 'in the group, edited');
    expect(await row(ws, inGroup.externalId)).toMatchObject({ content: 'in the group, edited', edited: true });
  });

  it('an id naming no message of the workspace waits as before, with its chat kept for when the message comes', async () => {
    const ws = await workspace();
    const chat = phoneJid(randomPhone());
    const id = messageId();
    await react(ws, id, peer(chat), '👍');
    const [pending] = (await s.t.dataSource.query('SELECT payload FROM pending_message_updates WHERE workspace_id = $1', [ws])) as {
      payload: Record<string, unknown>;
    }[];
    expect(pending!.payload).toEqual({
      sender_jid: chat,
      emoji: '👍',
      origin: { chat_jid: chat, chat_jid_alt: null, sender_jid: chat, sender_jid_alt: null, from_me: false },
    });
    await deliver(ws, scanMessage({ chatJid: chat, senderJid: chat, externalId: id, content: 'late' }));
    await eventually('the waiting reaction', async () => ((await row(ws, id)).reactions as unknown[]).length === 1);
    expect(await s.waiting(ws)).toBe(0);
  });
});

// An update that found its message missing is queueing (its transaction not committed yet) when
// the message commits and a later update of it arrives: the later one must wait for it and queue
// behind it, not apply at once and then be overwritten by the earlier one.
describe('message updates: one target’s updates in order of arrival', () => {
  let s: UpdatesTestApp;
  beforeAll(async () => {
    // Sweeps only when the test says.
    s = await createUpdatesTestApp({ pending: { ttlMs: 60_000, sweepIntervalMs: 3_600_000 }, recordChanges: false });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a later update waits for an earlier one still queueing, and queues behind it', async () => {
    const workspace = (await s.t.factories.workspaceWithOwner()).workspace.id;
    const target = scanMessage({ content: 'the offer' });
    const from = { chatJid: target.chatJid, chatJidAlt: null, senderJid: target.senderJid, fromMe: false };
    const pending = s.t.app.get(PendingMessageUpdatesRepository);
    let queueing!: () => void;
    const inQueue = new Promise<void>((resolve) => (queueing = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const add = pending.add.bind(pending);
    // The first update holds its transaction open right after writing its waiting row.
    const spy = jest.spyOn(pending, 'add').mockImplementationOnce(async (...args: Parameters<typeof pending.add>) => {
      await add(...args);
      queueing();
      await released;
    });
    try {
      const first = s.handler.handle(workspace, { type: 'reactions', reactions: [{ ...from, externalId: target.externalId, emoji: '👍' }] });
      await inQueue;
      await s.handler.handle(workspace, { type: 'messages', kind: 'notify', messages: [target] });
      const second = s.handler.handle(workspace, { type: 'reactions', reactions: [{ ...from, externalId: target.externalId, emoji: '❤️' }] });
      // The second waits for the first's lock on the target.
      await eventually('the second update to wait', async () => (await advisoryWaiters()) > 0);
      release();
      await Promise.all([first, second]);
    } finally {
      spy.mockRestore();
      release();
    }
    expect(await s.waiting(workspace)).toBe(2);
    await s.sweeper.sweep();
    const [row] = (await s.t.dataSource.query('SELECT reactions FROM messages WHERE workspace_id = $1 AND external_id = $2', [
      workspace,
      target.externalId,
    ])) as { reactions: unknown[] }[];
    expect(row!.reactions).toEqual([{ emoji: '❤️', sender_jid: target.senderJid }]);
  });

  const advisoryWaiters = async (): Promise<number> =>
    ((await s.t.dataSource.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)) as { n: number }[])[0]!.n;
});
