import { describe, expect, it } from '@jest/globals';
import { BufferJSON, proto, type WAMessage } from '@whiskeysockets/baileys';
import { classifyContent, classifyMessage } from '../../src/modules/chat/driver/baileys/mappers/baileys-message.classifier.js';
import { mapHistory } from '../../src/modules/chat/driver/baileys/mappers/baileys-history.mapper.js';
import { mapLidMapping } from '../../src/modules/chat/driver/baileys/mappers/baileys-lid.mapper.js';
import { parseMediaRef } from '../../src/modules/chat/driver/baileys/mappers/baileys-media.mapper.js';
import { mapMessage, mapUpsert } from '../../src/modules/chat/driver/baileys/mappers/baileys-message.mapper.js';
import { outgoingContent, resendContent } from '../../src/modules/chat/driver/baileys/mappers/baileys-outgoing.mapper.js';
import { mapReceipts } from '../../src/modules/chat/driver/baileys/mappers/baileys-update.mapper.js';
import {
  AT,
  EDIT_CONTENT,
  GROUP,
  historyMessage,
  historySet,
  live,
  MEDIA_KEY,
  MESSAGE_CONTENT,
  OWN,
  OWN_LID,
  PEER,
  PEER_LID,
  PEER_PN,
  PROTOCOL_CONTENT,
  stub,
  wire,
} from './baileys-mappers.fixtures.js';

const NOW = new Date('2026-11-24T12:00:00Z');
const { Status } = proto.WebMessageInfo;
const { INITIAL_BOOTSTRAP, RECENT, PUSH_NAME, ON_DEMAND } = proto.HistorySync.HistorySyncType;

describe('Baileys mappers: one classification per message', () => {
  it.each(MESSAGE_CONTENT)('a message: $name', ({ content, contentType, type, text }) => {
    expect(classifyContent(wire(content))).toMatchObject({ class: 'message', contentType, body: { type, content: text } });
  });

  it.each(EDIT_CONTENT)('an update: $name', ({ content, editedId, text }) => {
    expect(classifyContent(wire(content))).toEqual({
      class: 'update',
      contentType: 'protocolMessage',
      update: { type: 'edit', externalId: editedId, content: text },
    });
  });

  it.each(PROTOCOL_CONTENT)('protocol traffic: $name', ({ content, contentType }) => {
    expect(classifyContent(wire(content))).toEqual({ class: 'protocol', contentType });
  });

  it('a stub without content (undecryptable for now) is protocol traffic with no content type', () => {
    expect(classifyMessage(stub('STUB1'))).toEqual({ class: 'protocol', contentType: null });
  });
});

describe('Baileys mappers: messages', () => {
  it('maps a live LID 1:1 message, keeping the phone from the alt jid', () => {
    expect(mapMessage(live('IN1', { conversation: 'hello' }), OWN, NOW)).toEqual({
      externalId: 'IN1',
      chatJid: PEER,
      chatJidAlt: PEER_PN,
      isGroup: false,
      fromMe: false,
      senderJid: PEER,
      senderJidAlt: PEER_PN,
      senderName: 'Alice',
      type: 'text',
      content: 'hello',
      media: null,
      timestamp: AT,
    });
  });

  const groupOwn = live('GOWN1', { conversation: 'from my phone' }, { chat: GROUP, fromMe: true });
  groupOwn.key.participant = `${OWN_LID}:3@lid`;
  it.each<[string, WAMessage, object]>([
    [
      'an own 1:1 message (sent from the phone)',
      live('OWN1', { conversation: 'hi' }, { fromMe: true }),
      { fromMe: true, senderJid: OWN.jid, senderJidAlt: OWN.lid, chatJidAlt: PEER_PN },
    ],
    [
      'a group message',
      live('G1', { conversation: 'hi team' }, { chat: GROUP }),
      { isGroup: true, chatJid: GROUP, chatJidAlt: null, senderJid: PEER, senderJidAlt: PEER_PN },
    ],
    [
      'an own group message (participant: our LID and device)',
      groupOwn,
      { isGroup: true, fromMe: true, senderJid: OWN.jid, senderJidAlt: OWN.lid, senderName: 'Shop' },
    ],
    [
      'a phone-addressed 1:1 message',
      live('PN1', { conversation: 'hi' }, { chat: PEER_PN }),
      { chatJid: PEER_PN, chatJidAlt: null, senderJid: PEER_PN, senderJidAlt: null },
    ],
    ['a message without a usable timestamp (stored as it arrived)', live('T0', { conversation: 'hi' }, { timestamp: 0 }), { timestamp: NOW }],
  ])('%s', (_name, msg, expected) => {
    expect(mapMessage(msg, OWN, NOW)).toMatchObject(expected);
  });

  it.each<[string, WAMessage]>([
    ['a status update', live('S1', { conversation: 'story' }, { chat: 'status@broadcast' })],
    ['a channel post', live('N1', { conversation: 'news' }, { chat: '120363111111111111@newsletter' })],
    ['a message without id', { ...live('', { conversation: 'x' }) }],
    ['an undecryptable stub', stub('STUB1')],
    ['an edit', live('E1', EDIT_CONTENT[0]!.content)],
    ['a reaction', live('R1', PROTOCOL_CONTENT[0]!.content)],
  ])('leaves out %s', (_name, msg) => {
    expect(mapMessage(msg, OWN, NOW)).toBeNull();
  });

  it('maps an image: caption, mime type, size (a Long on the wire) and a ref to download it later', () => {
    const { media, ...rest } = mapMessage(live('IMG1', MESSAGE_CONTENT.find((c) => c.name === 'an image with a caption')!.content), OWN, NOW)!;
    expect(rest).toMatchObject({ type: 'image', content: 'look' });
    expect(media).toMatchObject({ mimeType: 'image/jpeg', fileName: '', fileSize: 48213 });
    expect(JSON.parse(media!.ref, BufferJSON.reviver)).toEqual({
      kind: 'image',
      mediaKey: MEDIA_KEY,
      directPath: '/v/t62.7118-24/1.enc',
      url: 'https://mmg.whatsapp.net/v/t62.7118-24/1.enc',
    });
    expect(parseMediaRef(media!.ref)).toMatchObject({ kind: 'image', directPath: '/v/t62.7118-24/1.enc' });
  });

  it.each<[string, proto.IMessage, object]>([
    [
      'a document with a caption',
      MESSAGE_CONTENT.find((c) => c.name === 'a document with a caption')!.content,
      { mimeType: 'application/pdf', fileName: 'offer.pdf', fileSize: 1048576 },
    ],
    [
      'a document named only by its title, of no stated type',
      { documentMessage: { title: 'Price list', mediaKey: MEDIA_KEY, url: 'https://mmg.whatsapp.net/d/3.enc' } },
      {
        mimeType: 'application/octet-stream',
        fileName: 'Price list',
        fileSize: 0,
      },
    ],
    ['an image of no stated type', { imageMessage: { mediaKey: MEDIA_KEY, directPath: '/v/4.enc' } }, { mimeType: 'image/jpeg', fileName: '', fileSize: 0 }],
  ])('media: %s', (_name, content, expected) => {
    expect(mapMessage(live('M1', content), OWN, NOW)?.media).toMatchObject(expected);
  });

  it.each<[string, string]>([
    ['of an unknown kind', JSON.stringify({ kind: 'video', mediaKey: 'a2V5', directPath: '/v/1.enc' })],
    ['without a media key', JSON.stringify({ kind: 'image', directPath: '/v/1.enc' })],
    ['without a path or url', JSON.stringify({ kind: 'document', mediaKey: 'a2V5' })],
  ])('refuses a media reference %s', (_name, ref) => {
    expect(() => parseMediaRef(ref)).toThrow('unrecognised media reference');
  });

  it('hands a live batch over as its messages and the edits among them, each in order, without protocol traffic', () => {
    const batch = [
      live('IN1', { conversation: 'first' }),
      live('E1', EDIT_CONTENT[0]!.content),
      live('R1', PROTOCOL_CONTENT[0]!.content),
      live('G1', { conversation: 'in the group' }, { chat: GROUP }),
      live('E2', EDIT_CONTENT[2]!.content, { chat: GROUP }),
      stub('STUB1'),
    ];
    const { messages, edits } = mapUpsert(batch, OWN, NOW);
    expect(messages.map((m) => [m.externalId, m.content])).toEqual([
      ['IN1', 'first'],
      ['G1', 'in the group'],
    ]);
    expect(edits).toEqual([
      { chatJid: PEER, externalId: 'IN1', content: 'fixed typo' },
      { chatJid: GROUP, externalId: 'IMG1', content: 'new caption' },
    ]);
  });
});

describe('Baileys mappers: receipts', () => {
  const key = (id: string, fromMe = true) => ({ remoteJid: PEER, id, fromMe, participant: undefined });
  it.each<[string, number, string | null]>([
    ['server ack', Status.SERVER_ACK, 'sent'],
    ['delivery', Status.DELIVERY_ACK, 'delivered'],
    ['read', Status.READ, 'read'],
    ['played (a voice note)', Status.PLAYED, 'read'],
    ['pending', Status.PENDING, null],
    ['error', Status.ERROR, null],
  ])('a 1:1 status update, %s', (_name, status, expected) => {
    const receipts = mapReceipts({ 'messages.update': [{ key: key('OUT1'), update: { status, messageTimestamp: 1 } }] });
    expect(receipts).toEqual(expected ? [{ chatJid: PEER, externalId: 'OUT1', status: expected }] : []);
  });

  it.each<[string, proto.IUserReceipt, string]>([
    ['delivered', { userJid: PEER, receiptTimestamp: 1 }, 'delivered'],
    ['read', { userJid: PEER, readTimestamp: 1 }, 'read'],
    ['played', { userJid: PEER, playedTimestamp: 1 }, 'read'],
  ])("a group participant's receipt, %s", (_name, receipt, expected) => {
    const receipts = mapReceipts({ 'message-receipt.update': [{ key: { remoteJid: GROUP, id: 'GOUT1', fromMe: true, participant: PEER }, receipt }] });
    expect(receipts).toEqual([{ chatJid: GROUP, externalId: 'GOUT1', status: expected }]);
  });

  it("reads the status Baileys folded into an own message's upsert, and ignores others' messages", () => {
    const own = live('OUT9', { conversation: 'reply' }, { fromMe: true });
    own.userReceipt = [{ userJid: PEER, receiptTimestamp: 1 }];
    const receipts = mapReceipts({
      'messages.upsert': { type: 'append', messages: [own, live('IN1', { conversation: 'theirs' })] },
      'messages.update': [{ key: key('IN1', false), update: { status: Status.READ } }],
    });
    expect(receipts).toEqual([
      { chatJid: PEER, externalId: 'OUT9', status: 'sent' },
      { chatJid: PEER, externalId: 'OUT9', status: 'delivered' },
    ]);
  });
});

describe('Baileys mappers: history and LID mappings', () => {
  it('maps a history chunk: its messages (Long timestamps), names from chats and push names, its LID mappings', () => {
    const set = historySet(
      {
        syncType: INITIAL_BOOTSTRAP,
        progress: 40,
        conversations: [
          { id: PEER_PN, displayName: 'Alice', lidJid: PEER, messages: [historyMessage('H1', PEER_PN, { conversation: 'old one' })] },
          { id: GROUP, name: 'Team', messages: [historyMessage('H2', GROUP, { reactionMessage: { key: { id: 'H1' }, text: '👍' } }, { participant: PEER })] },
        ],
        phoneNumberToLidMappings: [{ pnJid: '15550003333@s.whatsapp.net', lidJid: '77777777777777@lid' }],
      },
      true,
    );
    expect(mapHistory(set, OWN, NOW)).toEqual({
      messages: [expect.objectContaining({ externalId: 'H1', chatJid: PEER_PN, content: 'old one', timestamp: new Date(1763000000 * 1000) })],
      chatNames: { [PEER_PN]: 'Alice', [GROUP]: 'Team' },
      lidMappings: [
        { lid: '77777777777777@lid', phone: '15550003333@s.whatsapp.net' },
        { lid: PEER, phone: PEER_PN },
      ],
      progress: 40,
      isLatest: false,
    });
  });

  it('takes push names as chat names', () => {
    const set = historySet({ syncType: PUSH_NAME, pushnames: [{ id: PEER_PN, pushname: 'Alice A.' }] });
    expect(mapHistory(set, OWN, NOW)).toMatchObject({ messages: [], chatNames: { [PEER_PN]: 'Alice A.' }, progress: null });
  });

  it.each<[string, number, number | undefined, boolean, boolean]>([
    ['the first batch after the link (Baileys says latest)', INITIAL_BOOTSTRAP, undefined, true, false],
    ['a batch on the way', RECENT, 60, false, false],
    ['the batch that says 100 %', RECENT, 100, false, true],
    ['an on-demand batch at 100 %', ON_DEMAND, 100, false, false],
  ])('the last batch of the initial sync: %s', (_name, syncType, progress, isLatest, expected) => {
    expect(mapHistory(historySet({ syncType, progress }, isLatest), OWN, NOW).isLatest).toBe(expected);
  });

  it.each<[string, { lid: string; pn: string }, object | null]>([
    ['plain', { lid: PEER, pn: PEER_PN }, { lid: PEER, phone: PEER_PN }],
    ['with device parts', { lid: `${PEER_LID}:12@lid`, pn: '15550002222:12@s.whatsapp.net' }, { lid: PEER, phone: PEER_PN }],
    ['without the phone', { lid: PEER, pn: '' }, null],
  ])('a LID mapping, %s', (_name, mapping, expected) => {
    expect(mapLidMapping(mapping)).toEqual(expected);
  });
});

describe('Baileys mappers: outgoing', () => {
  const data = Buffer.from('file');
  it.each<[string, Parameters<typeof outgoingContent>[0], object]>([
    ['text, without a link preview', { type: 'text', body: 'see https://example.com' }, { text: 'see https://example.com', linkPreview: null }],
    [
      'an image without caption',
      { type: 'image', data, mimeType: 'image/png', fileName: '', caption: '' },
      { image: data, mimetype: 'image/png', caption: undefined },
    ],
    [
      'a document',
      { type: 'document', data, mimeType: 'application/pdf', fileName: 'a.pdf', caption: 'the offer' },
      {
        document: data,
        mimetype: 'application/pdf',
        fileName: 'a.pdf',
        caption: 'the offer',
      },
    ],
  ])('sends %s', (_name, outgoing, expected) => {
    expect(outgoingContent(outgoing)).toEqual(expected);
  });

  it('rebuilds only text for a resend request', () => {
    expect(resendContent({ type: 'text', content: 'hello' })).toEqual({ conversation: 'hello' });
    expect(resendContent({ type: 'image', content: 'caption' })).toBeUndefined();
    expect(resendContent(undefined)).toBeUndefined();
  });
});
