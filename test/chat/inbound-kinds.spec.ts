import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { proto } from '@whiskeysockets/baileys';
import { contacts, liveLocation, location, poll, reaction, revoke, text, vcard } from '../whatsapp-sim/content-messages.js';
import { apiMessage, type Json, type KindsSession, linkedKindsSession, storedRow, webhookFor } from './inbound-kinds-support.js';

/**
 * What a contact sends beside text and files (issue 36), end to end through the real Baileys
 * driver and the simulator: places, contact cards, polls and what the inbox cannot show, each a
 * message of its kind whose `content` reads as text; replies and mentions; and the protocol
 * traffic that is no message at all.
 */
jest.setTimeout(60_000);

const PHONE = '15550100362';

/** A contact number of its own per test, so each test's conversation holds only its messages. */
const contact = (): string => `49152036${Math.floor(1e5 + Math.random() * 9e5)}`;

interface KindCase {
  name: string;
  message: proto.IMessage;
  /** What the API message and the scan.chat event both show. */
  expected: Json;
}

const bobCard = vcard('Bob Builder', ['4915112345678']);
const CASES: KindCase[] = [
  {
    name: 'a place',
    message: location({ latitude: 52.520008, longitude: 13.404954, name: 'Office', address: 'Unter den Linden 1, Berlin', url: 'https://maps.example/office' }),
    expected: {
      kind: 'location',
      message_type: 'text',
      content: 'Office, Unter den Linden 1, Berlin (52.520008, 13.404954)\nhttps://maps.example/office',
      location: { latitude: 52.520008, longitude: 13.404954, name: 'Office', address: 'Unter den Linden 1, Berlin', url: 'https://maps.example/office' },
      contacts: null,
      poll: null,
    },
  },
  {
    name: 'a live location, as its first position',
    message: liveLocation({ latitude: -33.8688, longitude: 151.2093, caption: 'on my way' }),
    expected: {
      kind: 'location',
      message_type: 'text',
      content: 'Location (-33.8688, 151.2093)',
      location: { latitude: -33.8688, longitude: 151.2093, name: '', address: '', url: '' },
    },
  },
  {
    name: 'a contact card',
    message: contacts([{ name: 'Bob Builder', phones: ['4915112345678'] }]),
    expected: {
      kind: 'contacts',
      message_type: 'text',
      content: 'Bob Builder: +4915112345678',
      contacts: [{ name: 'Bob Builder', phones: ['4915112345678'], vcard: bobCard }],
      location: null,
    },
  },
  {
    name: 'several contact cards',
    message: contacts([
      { name: 'Bob Builder', phones: ['4915112345678'] },
      { name: 'Ada', phones: ['442079460000', '15550001234'] },
    ]),
    expected: {
      kind: 'contacts',
      message_type: 'text',
      content: 'Bob Builder: +4915112345678\nAda: +442079460000, +15550001234',
      contacts: [
        { name: 'Bob Builder', phones: ['4915112345678'], vcard: bobCard },
        { name: 'Ada', phones: ['442079460000', '15550001234'], vcard: vcard('Ada', ['442079460000', '15550001234']) },
      ],
    },
  },
  {
    name: 'a poll with one answer',
    message: poll('Lunch at noon?', ['yes', 'no']),
    expected: {
      kind: 'poll',
      message_type: 'text',
      content: 'Poll: Lunch at noon?\n- yes\n- no',
      poll: { question: 'Lunch at noon?', options: ['yes', 'no'], multiple: false },
    },
  },
  {
    name: 'a poll with several answers',
    message: poll('Which days?', ['Mon', 'Tue', 'Wed'], true),
    expected: {
      kind: 'poll',
      message_type: 'text',
      content: 'Poll: Which days? (several answers allowed)\n- Mon\n- Tue\n- Wed',
      poll: { question: 'Which days?', options: ['Mon', 'Tue', 'Wed'], multiple: true },
    },
  },
  {
    name: 'a call (its log)',
    message: { callLogMesssage: { isVideo: false, callOutcome: 1, durationSecs: 42, callType: 1 } },
    expected: { kind: 'unsupported', message_type: 'text', content: '[a call]' },
  },
  {
    name: 'an event',
    message: {
      eventMessage: { name: 'Launch party', startTime: Math.floor(Date.now() / 1000) + 86_400 },
      messageContextInfo: { messageSecret: Buffer.alloc(32, 5) },
    },
    expected: { kind: 'unsupported', message_type: 'text', content: '[an event]' },
  },
  {
    name: 'an order',
    message: { orderMessage: { orderId: 'ORDER-1', itemCount: 2, orderTitle: 'Mugs' } },
    expected: { kind: 'unsupported', message_type: 'text', content: '[an order]' },
  },
];

describe('scan inbound kinds end to end: places, cards, polls, unsupported, replies, mentions', () => {
  let s: KindsSession;

  // Linking costs seconds of curve math (812 pre-keys): on a loaded machine, more than a test's minute.
  beforeAll(async () => {
    s = await linkedKindsSession(PHONE);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(CASES)('$name: stored with its kind, content rendered as text, scan.chat with its fields', async ({ message, expected }) => {
    const id = await s.sim.deliverMessage({ to: PHONE, from: contact(), name: 'Nora', message });
    const stored = await apiMessage(s, id);
    expect(stored).toMatchObject({ direction: 'inbound', ...expected, media_url: '', duration_s: 0, quoted_message_id: '', mentions: [] });
    expect(await storedRow(s, id)).toMatchObject({ message_type: expected.kind });
    expect(await webhookFor(s, id)).toMatchObject({ event: 'message.inbound', chat_message_id: id, ...expected, media_url: '' });
  });

  it('a reply keeps the quoted message id and links the stored message it quotes (in the API; its id in scan.chat)', async () => {
    const from = contact();
    const question = await s.sim.deliverText({ to: PHONE, from, name: 'Rita', text: 'what time?' });
    const quoted = await apiMessage(s, question);
    const id = await s.sim.deliverMessage({
      to: PHONE,
      from,
      message: text('at noon', { quote: { id: question, participant: `${from}@s.whatsapp.net`, text: 'what time?' } }),
    });
    expect(await apiMessage(s, id)).toMatchObject({ kind: 'text', content: 'at noon', quoted_message_id: question, quoted_id: quoted.id });
    expect(await webhookFor(s, id)).toMatchObject({ kind: 'text', quoted_message_id: question });

    // A reply to a message the inbox never held keeps the id, without a link.
    const orphan = await s.sim.deliverMessage({ to: PHONE, from, message: text('as I said', { quote: { id: '3EB0NOTSTORED00000', text: 'older' } }) });
    expect(await apiMessage(s, orphan)).toMatchObject({ quoted_message_id: '3EB0NOTSTORED00000', quoted_id: null });
  });

  it('a group message keeps the jids it mentions', async () => {
    const [writer, mentioned] = [contact(), contact()];
    const group = `120363${Math.floor(1e11 + Math.random() * 9e11)}@g.us`;
    s.sim.group({ jid: group, to: PHONE, subject: 'Mentions', members: [writer, mentioned] });
    const mentionedLid = s.sim.world.contact(mentioned).lidJid;
    const own = `${PHONE}@s.whatsapp.net`;
    const id = await s.sim.deliverMessage({
      to: PHONE,
      from: writer,
      group,
      message: text(`@${mentionedLid.split('@')[0]} @${PHONE} please check`, { mentions: [mentionedLid, own] }),
    });
    const stored = await apiMessage(s, id);
    expect(stored).toMatchObject({ kind: 'text', mentions: [mentionedLid, own] });
    expect(await webhookFor(s, id)).toMatchObject({ is_group: true, mentions: [mentionedLid, own] });
  });

  it('a reaction and a revoke change the message they name: no message of their own, no scan.chat', async () => {
    const from = contact();
    const first = await s.sim.deliverText({ to: PHONE, from, text: 'react, then delete' });
    await apiMessage(s, first);
    const reacted = await s.sim.deliverMessage({ to: PHONE, from, message: reaction({ id: first, fromMe: true }, '🙏') });
    expect(await apiMessage(s, first, false, (m) => Array.isArray(m.reactions) && m.reactions.length > 0)).toMatchObject({
      reactions: [{ emoji: '🙏', sender_jid: `${from}@s.whatsapp.net` }],
      deleted: false,
    });
    const revoked = await s.sim.deliverMessage({ to: PHONE, from, message: revoke({ id: first }) });
    expect(await apiMessage(s, first, false, (m) => m.deleted === true)).toMatchObject({ deleted: true, content: 'react, then delete' });
    for (const id of [reacted, revoked]) expect(await storedRow(s, id)).toBeUndefined();
    expect(s.receiver.at('/hook').filter((r) => [reacted, revoked].some((id) => r.body.toString('utf8').includes(id)))).toEqual([]);
  });

  it('protocol traffic (a pin, keep-in-chat, a poll vote) stores nothing and sends no scan.chat', async () => {
    const from = contact();
    const first = await s.sim.deliverText({ to: PHONE, from, text: 'before' });
    const conversationId = String((await apiMessage(s, first)).conversation_id);
    const target = { remoteJid: `${from}@s.whatsapp.net`, fromMe: true, id: first };
    const traffic: proto.IMessage[] = [
      { pinInChatMessage: { key: target, type: 1, senderTimestampMs: Date.now() } },
      { keepInChatMessage: { key: target, keepType: 1, timestampMs: Date.now() } },
      { pollUpdateMessage: { pollCreationMessageKey: target, vote: { encPayload: Buffer.alloc(16, 1), encIv: Buffer.alloc(12, 2) } } },
    ];
    const ids: string[] = [];
    for (const message of traffic) ids.push(await s.sim.deliverMessage({ to: PHONE, from, message }));
    // Messages of one socket are handled in order: once the last text is stored, the traffic before it was handled.
    const last = await s.sim.deliverText({ to: PHONE, from, text: 'after' });
    await apiMessage(s, last);
    const rows: { external_id: string }[] = await s.t.dataSource.query(
      'SELECT external_id FROM messages WHERE workspace_id = $1 AND conversation_id = $2 ORDER BY timestamp, external_id',
      [s.ws.workspaceId, conversationId],
    );
    expect(rows.map((r) => r.external_id).sort()).toEqual([first, last].sort());
    for (const id of ids) expect(await storedRow(s, id)).toBeUndefined();
    expect(s.receiver.at('/hook').filter((r) => ids.some((id) => r.body.toString('utf8').includes(id)))).toEqual([]);
  });
});
