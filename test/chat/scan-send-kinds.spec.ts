import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { buildVcard } from '../../src/modules/inbox/message-details.js';
import { api, createE2eApp, type E2eWorkspace, eventually, type Json, link, messagesOf, messageWhen, newWorkspace } from '../e2e/e2e-support.js';
import { mp4, MP3, oggOpus, webp } from '../support/media-fixtures.js';
import type { TestApp } from '../support/test-app.js';
import type { SentMessage } from '../whatsapp-sim/sim-model.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';

/**
 * Every kind the inbox sends, through the real Baileys driver to the loopback WhatsApp simulator,
 * where the contact decrypts it (files fetched from the media host and decrypted with the
 * message's key): what the contact's phone gets, and what the inbox stores. Reactions, deletes
 * for everyone and edits reach the contact the same way and change the stored message.
 */
jest.setTimeout(90_000);

const PHONE = '15550100036';
const OWN_JID = `${PHONE}@s.whatsapp.net`;
const b64 = (data: Buffer): string => data.toString('base64');

describe('scan channel: sending every kind to a simulated contact', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  /** A one-to-one conversation opened by the contact `from`: its id and the contact's first message. */
  async function opened(from: string, group?: string): Promise<{ conversationId: string; inbound: Json }> {
    const id = await sim.deliverText({ to: PHONE, from, name: 'Vera', text: 'hi there', ...(group ? { group } : {}) });
    const inbound = await messageWhen(t, ws, id);
    await sim.waitForLive(PHONE);
    return { conversationId: String(inbound.conversation_id), inbound };
  }

  const send = (conversationId: string, body: object) => api(t, ws, 'post', `/api/conversations/${conversationId}/messages`, body);
  const change = (method: 'patch' | 'delete', conversationId: string, messageId: unknown, body?: object) => {
    const request = t
      .http()
      [method](`/api/conversations/${conversationId}/messages/${String(messageId)}`)
      .set('Authorization', `Bearer ${ws.key}`);
    return body ? request.send(body) : request;
  };
  /** What the contact received for a message the inbox answered with `body` (201 pending: WhatsApp's id derives from ours), decrypted. */
  const received = async (body: Json): Promise<SentMessage> => {
    const sent = await sim.waitForSent((m) => m.id === waMessageId(body.id as string));
    expect(sent.error).toBeUndefined();
    // …and the queue recorded it as sent (a moment after the contact has it).
    await eventually('recorded as sent', async () =>
      (await messagesOf(t, ws, body.conversation_id as string)).find((m) => m.id === body.id)?.status === 'sent' ? true : undefined,
    );
    return sent;
  };
  /** The next message the device sends that matches (reactions, deletes and edits get ids the inbox does not keep). */
  const nextSent = (match: (m: SentMessage) => boolean): Promise<SentMessage> => sim.waitForSent(match);

  it('a video, an audio file, a voice note and a sticker: the contact decrypts the exact bytes, with type, ptt flag and playing time', async () => {
    const from = '4915100360001';
    const { conversationId } = await opened(from);
    const video = mp4(8);
    const audio = MP3;
    const voice = oggOpus(4);
    const sticker = webp(true);

    const v = await send(conversationId, { type: 'video', caption: 'the tour', media: { data_base64: b64(video), mime_type: 'video/mp4' } });
    expect(v.status).toBe(201);
    expect((await received(v.body as Json)).media).toMatchObject({ kind: 'video', mimetype: 'video/mp4', caption: 'the tour', seconds: 8 });

    const a = await send(conversationId, { type: 'audio', media: { data_base64: b64(audio), mime_type: 'audio/mpeg' } });
    expect(a.status).toBe(201);
    const audioSent = await received(a.body as Json);
    expect(audioSent.media).toMatchObject({ kind: 'audio', mimetype: 'audio/mpeg', ptt: false });
    expect(audioSent.media!.data.equals(audio)).toBe(true);

    const n = await send(conversationId, { type: 'voice', media: { data_base64: b64(voice), mime_type: 'audio/ogg' } });
    expect(n.status).toBe(201);
    expect(n.body).toMatchObject({ kind: 'voice', duration_s: 4, mime_type: 'audio/ogg; codecs=opus' });
    const note = await received(n.body as Json);
    expect(note.media).toMatchObject({ kind: 'audio', mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 4 });
    expect(note.media!.data.equals(voice)).toBe(true);
    // The waveform the phone draws, read from the file (no audio decoder needed).
    expect(note.media!.waveform).toHaveLength(64);

    const st = await send(conversationId, { type: 'sticker', media: { data_base64: b64(sticker), mime_type: 'image/webp' } });
    expect(st.status).toBe(201);
    const stickerSent = await received(st.body as Json);
    expect(stickerSent.media).toMatchObject({ kind: 'sticker', mimetype: 'image/webp', animated: true });
    expect(stickerSent.media!.data.equals(sticker)).toBe(true);

    const videoSent = await received(v.body as Json);
    expect(videoSent.media!.data.equals(video)).toBe(true);
    // The queue records `sent` once WhatsApp took each one (a moment after the contact has it).
    const stored = await eventually('all four recorded as sent', async () => {
      const rows = await messagesOf(t, ws, conversationId);
      return [v, a, n, st].every((r) => rows.find((m) => m.id === (r.body as Json).id)?.status === 'sent') ? rows : undefined;
    });
    const byId = (m: Json) => stored.find((s) => s.id === m.id);
    expect([v, a, n, st].map((r) => [byId(r.body as Json)?.kind, byId(r.body as Json)?.status])).toEqual([
      ['video', 'sent'],
      ['audio', 'sent'],
      ['voice', 'sent'],
      ['sticker', 'sent'],
    ]);
  });

  it('a location and contact cards: the contact reads the place and the vCards', async () => {
    const from = '4915100360002';
    const { conversationId } = await opened(from);
    const place = await send(conversationId, {
      type: 'location',
      location: { latitude: 48.85837, longitude: 2.294481, name: 'Eiffel Tower', address: 'Champ de Mars, Paris' },
    });
    expect(place.status).toBe(201);
    expect((await received(place.body as Json)).location).toEqual({
      latitude: 48.85837,
      longitude: 2.294481,
      name: 'Eiffel Tower',
      address: 'Champ de Mars, Paris',
    });

    const one = await send(conversationId, { type: 'contacts', contacts: [{ name: 'Ada Lovelace', phones: ['+44 20 7946 0000'] }] });
    expect(one.status).toBe(201);
    expect((await received(one.body as Json)).contacts).toEqual({ displayName: 'Ada Lovelace', vcards: [buildVcard('Ada Lovelace', ['442079460000'])] });

    const two = await send(conversationId, {
      type: 'contacts',
      contacts: [
        { name: 'Ada', phones: ['442079460000'] },
        { name: 'Bob', phones: ['15551230000', '15551230001'] },
      ],
    });
    expect(two.status).toBe(201);
    expect((await received(two.body as Json)).contacts).toEqual({
      displayName: '2 contacts',
      vcards: [buildVcard('Ada', ['442079460000']), buildVcard('Bob', ['15551230000', '15551230001'])],
    });
  });

  it("a reply quotes the contact's message; a reaction, a delete and an edit reach the contact and change the stored message", async () => {
    const from = '4915100360003';
    const { conversationId, inbound } = await opened(from);

    const reply = await send(conversationId, { body: 'replying to you', reply_to: inbound.id });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ quoted_message_id: inbound.chat_message_id, quoted_id: inbound.id });
    expect((await received(reply.body as Json)).quoted).toEqual({ id: inbound.chat_message_id, participant: `${from}@s.whatsapp.net`, text: 'hi there' });

    const reacted = await send(conversationId, { reaction: { message_id: inbound.id, emoji: '❤️' } });
    expect(reacted.status).toBe(201);
    expect(reacted.body).toMatchObject({ id: inbound.id, reactions: [{ emoji: '❤️', sender_jid: OWN_JID }] });
    const reaction = await nextSent((m) => m.reaction?.key.id === inbound.chat_message_id);
    expect(reaction.reaction).toEqual({ emoji: '❤️', key: { id: inbound.chat_message_id, fromMe: false, remoteJid: `${from}@s.whatsapp.net` } });

    const edited = await change('patch', conversationId, (reply.body as Json).id, { body: 'replying to you, edited' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ edited: true, content: 'replying to you, edited' });
    const edit = await nextSent((m) => m.edit?.key.id === waMessageId((reply.body as Json).id as string));
    expect(edit.edit).toMatchObject({ key: { id: waMessageId((reply.body as Json).id as string), fromMe: true }, text: 'replying to you, edited' });

    const deleted = await change('delete', conversationId, (reply.body as Json).id);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, content: 'replying to you, edited' });
    const revoke = await nextSent((m) => m.revoke?.id === waMessageId((reply.body as Json).id as string));
    expect(revoke.revoke).toMatchObject({ id: waMessageId((reply.body as Json).id as string), fromMe: true });

    // The channel's echoes of the three changes find the rows changed already: no new message, one reaction.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const rows = await messagesOf(t, ws, conversationId);
    expect(rows.map((m) => m.id).sort()).toEqual([inbound.id, (reply.body as Json).id].sort());
    expect(rows.find((m) => m.id === inbound.id)).toMatchObject({ reactions: [{ emoji: '❤️', sender_jid: OWN_JID }] });
    expect(rows.find((m) => m.id === (reply.body as Json).id)).toMatchObject({ deleted: true, edited: true });

    const removed = await send(conversationId, { reaction: { message_id: inbound.id, emoji: '' } });
    expect([removed.status, (removed.body as Json).reactions]).toEqual([201, []]);
    expect((await nextSent((m) => m.reaction?.key.id === inbound.chat_message_id && m.reaction?.emoji === '')).reaction?.emoji).toBe('');
  });

  it("in a group, a reply and a reaction name the member's message by its participant", async () => {
    const member = '4915100360004';
    const group = `120363${Date.now() % 1e12}@g.us`;
    const { conversationId, inbound } = await opened(member, group);
    const reply = await send(conversationId, { body: 'noted', reply_to: inbound.id });
    expect(reply.status).toBe(201);
    const sent = await sim.waitForSent((m) => m.id === waMessageId((reply.body as Json).id as string));
    expect(sent).toMatchObject({ group, quoted: { id: inbound.chat_message_id, participant: `${member}@s.whatsapp.net` } });
    const reacted = await send(conversationId, { reaction: { message_id: inbound.id, emoji: '👍' } });
    expect(reacted.status).toBe(201);
    const reaction = await nextSent((m) => m.reaction?.key.id === inbound.chat_message_id);
    expect(reaction).toMatchObject({ group, reaction: { emoji: '👍', key: { participant: `${member}@s.whatsapp.net`, fromMe: false } } });
  });

  it('a voice note that is not Ogg/Opus is refused before anything reaches the contact', async () => {
    const from = '4915100360005';
    const { conversationId } = await opened(from);
    const before = sim.sent(PHONE).length;
    const res = await send(conversationId, { type: 'voice', media: { data_base64: b64(MP3), mime_type: 'audio/ogg' } });
    expect([res.status, (res.body as Json).error]).toEqual([400, 'a voice note must be audio/ogg with the Opus codec']);
    await eventually('no stray send', async () => (await messagesOf(t, ws, conversationId)).length === 1);
    expect(sim.sent(PHONE).length).toBe(before);
  });
});
