import { describe, expect, it } from '@jest/globals';
import { BufferJSON, proto, type WAMessage } from '@whiskeysockets/baileys';
import { classifyContent, classifyMessage } from '../../src/modules/chat/driver/baileys/mappers/baileys-message.classifier.js';
import { parseMediaRef } from '../../src/modules/chat/driver/baileys/mappers/baileys-media.mapper.js';
import { mapMessage, mapUpsert } from '../../src/modules/chat/driver/baileys/mappers/baileys-message.mapper.js';
import {
  AT,
  EDIT_CONTENT,
  GROUP,
  live,
  MEDIA_KEY,
  OWN,
  OWN_LID,
  PEER,
  PEER_PN,
  PROTOCOL_CONTENT,
  REACTION_AND_REVOKE_CONTENT,
  stub,
  wire,
} from './baileys-mappers.fixtures.js';
import { MESSAGE_CONTENT } from './baileys-message-content.fixtures.js';

// Receipts, history and LID mappings: baileys-sync-mappers.spec.ts; outgoing: baileys-outgoing-mapper.spec.ts.
const NOW = new Date('2026-11-24T12:00:00Z');

describe('Baileys mappers: one classification per message', () => {
  it.each(MESSAGE_CONTENT)('a message: $name', ({ content, contentType, type, text, extra }) => {
    expect(classifyContent(wire(content))).toMatchObject({ class: 'message', contentType, body: { type, content: text, ...extra } });
  });

  it('gives a body only the fields that apply: no reply, duration or details on a plain text', () => {
    expect(classifyContent(wire({ extendedTextMessage: { text: 'hi', contextInfo: { isForwarded: true } } }))).toEqual({
      class: 'message',
      contentType: 'extendedTextMessage',
      body: { type: 'text', content: 'hi', media: null },
    });
  });

  it.each(REACTION_AND_REVOKE_CONTENT)('an update: $name', ({ content, update }) => {
    expect(classifyContent(wire(content))).toEqual({ class: 'update', contentType: Object.keys(content)[0], update });
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
    ['a reaction', live('R1', REACTION_AND_REVOKE_CONTENT[0]!.content)],
    ['a revoke', live('D1', REACTION_AND_REVOKE_CONTENT[2]!.content)],
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
    ["named by the inbox's kind, not a Baileys media type", JSON.stringify({ kind: 'voice', mediaKey: 'a2V5', directPath: '/v/1.enc' })],
    ['of a media type no message carries', JSON.stringify({ kind: 'md-msg-hist', mediaKey: 'a2V5', directPath: '/v/1.enc' })],
    ['without a media key', JSON.stringify({ kind: 'image', directPath: '/v/1.enc' })],
    ['without a path or url', JSON.stringify({ kind: 'document', mediaKey: 'a2V5' })],
  ])('refuses a media reference %s', (_name, ref) => {
    expect(() => parseMediaRef(ref)).toThrow('unrecognised media reference');
  });

  it('hands a live batch over as its messages and each kind of update among them, each in order, without protocol traffic', () => {
    const reaction = (id: string, emoji: string) => ({ reactionMessage: { key: { remoteJid: PEER, id }, text: emoji } });
    const batch = [
      live('IN1', { conversation: 'first' }),
      live('E1', EDIT_CONTENT[0]!.content),
      live('R1', reaction('IN1', '👍')),
      live('P1', PROTOCOL_CONTENT[2]!.content),
      live('G1', { conversation: 'in the group' }, { chat: GROUP }),
      live('E2', EDIT_CONTENT[2]!.content, { chat: GROUP }),
      live('R2', reaction('G0', '❤️'), { chat: GROUP }),
      live('R3', reaction('IN1', ''), { fromMe: true }),
      live('D1', REACTION_AND_REVOKE_CONTENT[2]!.content),
      live('R4', reaction('S0', '🔥'), { chat: 'status@broadcast' }),
      live('E3', EDIT_CONTENT[0]!.content, { chat: 'status@broadcast' }),
      live('E4', EDIT_CONTENT[0]!.content, { chat: '120363111111111111@newsletter' }),
      live('E5', EDIT_CONTENT[0]!.content, { fromMe: true }),
      stub('STUB1'),
    ];
    const { messages, edits, reactions, revokes } = mapUpsert(batch, OWN, NOW);
    expect(messages.map((m) => [m.externalId, m.content])).toEqual([
      ['IN1', 'first'],
      ['G1', 'in the group'],
    ]);
    // Each with its chat (a 1:1 chat's other form too) and who sent it, as on messages; an edit
    // of a status update or a channel post is none of the inbox's, as their messages are not.
    const peerChat = { chatJid: PEER, chatJidAlt: PEER_PN };
    expect(edits).toEqual([
      { ...peerChat, externalId: 'IN1', content: 'fixed typo', senderJid: PEER, senderJidAlt: PEER_PN, fromMe: false },
      { chatJid: GROUP, chatJidAlt: null, externalId: 'IMG1', content: 'new caption', senderJid: PEER, senderJidAlt: PEER_PN, fromMe: false },
      { ...peerChat, externalId: 'IN1', content: 'fixed typo', senderJid: OWN.jid, senderJidAlt: OWN.lid, fromMe: true },
    ]);
    // The sender: the peer in a 1:1 chat, the participant in a group, this number's phone jid for its own.
    expect(reactions).toEqual([
      { ...peerChat, externalId: 'IN1', senderJid: PEER, fromMe: false, emoji: '👍' },
      { chatJid: GROUP, chatJidAlt: null, externalId: 'G0', senderJid: PEER, fromMe: false, emoji: '❤️' },
      { ...peerChat, externalId: 'IN1', senderJid: OWN.jid, fromMe: true, emoji: '' },
    ]);
    expect(revokes).toEqual([{ ...peerChat, externalId: 'IN1', senderJid: PEER, fromMe: false }]);
  });

  it.each<[string, proto.IMessage, object]>([
    ['a voice note (the Audio keys, as ptt)', { audioMessage: { ptt: true, mediaKey: MEDIA_KEY, directPath: '/v/5.enc' } }, { kind: 'ptt' }],
    ['an audio file', { audioMessage: { mediaKey: MEDIA_KEY, directPath: '/v/5.enc' } }, { kind: 'audio' }],
    ['a video', { videoMessage: { mediaKey: MEDIA_KEY, directPath: '/v/6.enc' } }, { kind: 'video' }],
    ['a round video note (the Video keys)', { ptvMessage: { mediaKey: MEDIA_KEY, directPath: '/v/6.enc' } }, { kind: 'video' }],
    ['a sticker (the Image keys, as sticker)', { stickerMessage: { mediaKey: MEDIA_KEY, directPath: '/v/7.enc' } }, { kind: 'sticker' }],
  ])('a media reference names the Baileys media type to decrypt with: %s', (_name, content, expected) => {
    const { media } = mapMessage(live('M2', content), OWN, NOW)!;
    expect(parseMediaRef(media!.ref)).toMatchObject({ ...expected, mediaKey: MEDIA_KEY });
  });
});
