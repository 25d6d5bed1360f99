import { type BaileysEventMap, processHistoryMessage, proto, type WAMessage } from '@whiskeysockets/baileys';

/**
 * Baileys messages as 7.0.0-rc14 hands them to `ev.process`, built the way it builds them: the
 * envelope as `decodeMessageNode` and `cleanMessage` leave it (lib/Utils/decode-wa-message.js,
 * process-message.js), the content decoded from the wire (`proto.Message.decode`, so 64-bit
 * fields are Longs, bytes are Buffers and absent fields read as null), history chunks decoded and
 * then processed by Baileys' own `processHistoryMessage`.
 */

export const OWN_PHONE = '15550001111';
export const OWN_LID = '99999999999999';
export const PEER_PHONE = '15550002222';
export const PEER_LID = '88888888888888';
export const GROUP = '120363000000000000@g.us';
export const PEER = `${PEER_LID}@lid`;
export const PEER_PN = `${PEER_PHONE}@s.whatsapp.net`;
/** Who the socket is logged in as, normalised (the mappers' `OwnJids`). */
export const OWN = { jid: `${OWN_PHONE}@s.whatsapp.net`, lid: `${OWN_LID}@lid` };

export const AT = new Date('2026-11-24T10:00:00Z');
const SECONDS = AT.getTime() / 1000;
export const MEDIA_KEY = Buffer.alloc(32, 7);
const MESSAGE_SECRET = Buffer.alloc(32, 3);

/** Content as the sender encoded it and Baileys decoded it. */
export const wire = (content: proto.IMessage): proto.IMessage => proto.Message.decode(proto.Message.encode(content).finish());

interface Envelope {
  fromMe?: boolean;
  chat?: string;
  pushName?: string;
  timestamp?: number;
}

/**
 * A live message: a 1:1 chat by default (LID-addressed, the phone in `remoteJidAlt`), a group when
 * `chat` is one (the writer in `participant`, the phone in `participantAlt`). Own messages carry
 * SERVER_ACK, as Baileys sets on every message from this number.
 */
export function live(id: string, content: proto.IMessage, envelope: Envelope = {}): WAMessage {
  const chat = envelope.chat ?? PEER;
  const group = chat.endsWith('@g.us');
  const fromMe = envelope.fromMe === true;
  const writer = fromMe ? `${OWN_LID}@lid` : PEER;
  return {
    key: {
      remoteJid: chat,
      remoteJidAlt: group ? undefined : chat === PEER ? PEER_PN : undefined,
      fromMe,
      id,
      // A status update names its writer too; a 1:1 chat's is cleaned to ''.
      participant: group || chat.endsWith('@broadcast') ? writer : '',
      participantAlt: group && !fromMe ? PEER_PN : undefined,
      addressingMode: 'lid',
    },
    messageTimestamp: envelope.timestamp ?? SECONDS,
    pushName: envelope.pushName ?? (fromMe ? 'Shop' : 'Alice'),
    broadcast: chat.endsWith('@broadcast'),
    ...(fromMe ? { status: proto.WebMessageInfo.Status.SERVER_ACK } : {}),
    message: wire(content),
  };
}

/** A message Baileys could not decrypt (yet): a stub without content. */
export const stub = (id: string): WAMessage => ({
  key: { remoteJid: PEER, remoteJidAlt: PEER_PN, fromMe: false, id, participant: '', addressingMode: 'lid' },
  messageTimestamp: SECONDS,
  pushName: 'Alice',
  broadcast: false,
  messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
  messageStubParameters: ['No session record'],
});

const { MESSAGE_EDIT, REVOKE, HISTORY_SYNC_NOTIFICATION, APP_STATE_SYNC_KEY_SHARE } = proto.Message.ProtocolMessage.Type;
const contextInfo = { messageSecret: MESSAGE_SECRET };
const image = {
  mimetype: 'image/jpeg',
  fileLength: 48213,
  mediaKey: MEDIA_KEY,
  directPath: '/v/t62.7118-24/1.enc',
  url: 'https://mmg.whatsapp.net/v/t62.7118-24/1.enc',
};
const pdf = { fileName: 'offer.pdf', mimetype: 'application/pdf', fileLength: 1048576, mediaKey: MEDIA_KEY, directPath: '/v/t62.7119-24/2.enc' };
const quoted = { stanzaId: 'IN0', participant: PEER, quotedMessage: { conversation: 'the question' } };

/** Content a person wrote, and what it classifies as: its content type, kind, text (or caption). */
export interface MessageCase {
  name: string;
  content: proto.IMessage;
  contentType: string;
  /** The kind it is handed over as (`other`: none the inbox stores). */
  type: string;
  text: string;
}
const message = (name: string, content: proto.IMessage, contentType: string, type: string, text = ''): MessageCase => ({
  name,
  content,
  contentType,
  type,
  text,
});
const skdm = { groupId: GROUP, axolotlSenderKeyDistributionMessage: Buffer.alloc(8, 1) };
const poll = { name: 'Lunch?', options: [{ optionName: 'yes' }, { optionName: 'no' }], selectableOptionsCount: 1 };
const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Bob\nEND:VCARD';

/** Content a person wrote, by family (text, media, structured, unknown): what each classifies as. */
export const MESSAGE_CONTENT: MessageCase[] = [
  message('plain text', { conversation: 'hello' }, 'conversation', 'text', 'hello'),
  message(
    'text with a link preview',
    { extendedTextMessage: { text: 'see https://example.com', matchedText: 'https://example.com', title: 'Example' }, messageContextInfo: contextInfo },
    'extendedTextMessage',
    'text',
    'see https://example.com',
  ),
  message('a reply', { extendedTextMessage: { text: 'the answer', contextInfo: quoted } }, 'extendedTextMessage', 'text', 'the answer'),
  message('a group message carrying its sender key', { senderKeyDistributionMessage: skdm, conversation: 'hi team' }, 'conversation', 'text', 'hi team'),
  message('disappearing text', { ephemeralMessage: { message: { extendedTextMessage: { text: 'gone soon' } } } }, 'extendedTextMessage', 'text', 'gone soon'),
  message('nested wrappers', { ephemeralMessage: { message: { viewOnceMessage: { message: { conversation: 'twice' } } } } }, 'conversation', 'text', 'twice'),
  message('text in an edited wrapper', { editedMessage: { message: { conversation: 'as edited' } } }, 'conversation', 'text', 'as edited'),
  message('an image with a caption', { imageMessage: { ...image, caption: 'look' }, messageContextInfo: contextInfo }, 'imageMessage', 'image', 'look'),
  message('a view-once image', { viewOnceMessageV2: { message: { imageMessage: { ...image, caption: 'once' } } } }, 'imageMessage', 'image', 'once'),
  message('a document', { documentMessage: pdf }, 'documentMessage', 'document'),
  message(
    'a document with a caption',
    { documentWithCaptionMessage: { message: { documentMessage: { ...pdf, caption: 'the offer' } } } },
    'documentMessage',
    'document',
    'the offer',
  ),
  message('a video with a caption (kept as text)', { videoMessage: { caption: 'watch this', mimetype: 'video/mp4' } }, 'videoMessage', 'text', 'watch this'),
  message('a video without caption', { videoMessage: { mimetype: 'video/mp4', seconds: 12 } }, 'videoMessage', 'other'),
  message('a place', { locationMessage: { degreesLatitude: 52.52, degreesLongitude: 13.4, name: 'Office' } }, 'locationMessage', 'other'),
  message('a contact card', { contactMessage: { displayName: 'Bob', vcard } }, 'contactMessage', 'other'),
  message('contact cards', { contactsArrayMessage: { displayName: '2 contacts', contacts: [{ displayName: 'Bob', vcard }] } }, 'contactsArrayMessage', 'other'),
  message('a poll', { pollCreationMessageV3: poll, messageContextInfo: contextInfo }, 'pollCreationMessageV3', 'other'),
  message('a sticker', { stickerMessage: { mimetype: 'image/webp', mediaKey: MEDIA_KEY } }, 'stickerMessage', 'other'),
  message('a voice note', { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 } }, 'audioMessage', 'other'),
];

/** Edits as WhatsApp sends them: the protocol message bare, or in the `editedMessage` wrapper. */
export const EDIT_CONTENT: { name: string; content: proto.IMessage; editedId: string; text: string }[] = [
  {
    name: 'a text edit',
    content: {
      protocolMessage: {
        type: MESSAGE_EDIT,
        key: { remoteJid: PEER, fromMe: false, id: 'IN1' },
        editedMessage: { conversation: 'fixed typo' },
        timestampMs: 1,
      },
      messageContextInfo: contextInfo,
    },
    editedId: 'IN1',
    text: 'fixed typo',
  },
  {
    name: 'an extended-text edit in the wrapper',
    content: {
      editedMessage: { message: { protocolMessage: { type: MESSAGE_EDIT, key: { id: 'IN2' }, editedMessage: { extendedTextMessage: { text: 'new text' } } } } },
    },
    editedId: 'IN2',
    text: 'new text',
  },
  {
    name: 'a caption edit',
    content: {
      editedMessage: { message: { protocolMessage: { type: MESSAGE_EDIT, key: { id: 'IMG1' }, editedMessage: { imageMessage: { caption: 'new caption' } } } } },
    },
    editedId: 'IMG1',
    text: 'new caption',
  },
];

/** Content that is no message: protocol traffic, what acts on other messages, edits the inbox keeps nothing of. */
export const PROTOCOL_CONTENT: { name: string; content: proto.IMessage; contentType: string | null }[] = [
  {
    name: 'a reaction',
    content: { reactionMessage: { key: { remoteJid: PEER, fromMe: true, id: 'OUT1' }, text: '👍', senderTimestampMs: 1 } },
    contentType: 'reactionMessage',
  },
  {
    name: 'an encrypted reaction',
    content: { encReactionMessage: { targetMessageKey: { id: 'OUT1' }, encPayload: Buffer.alloc(16), encIv: Buffer.alloc(12) } },
    contentType: 'encReactionMessage',
  },
  {
    name: 'a poll vote',
    content: {
      pollUpdateMessage: { pollCreationMessageKey: { remoteJid: PEER, id: 'POLL1' }, vote: { encPayload: Buffer.alloc(16), encIv: Buffer.alloc(12) } },
    },
    contentType: 'pollUpdateMessage',
  },
  {
    name: 'a revoke (delete for everyone)',
    content: { protocolMessage: { type: REVOKE, key: { remoteJid: PEER, fromMe: false, id: 'IN1' } } },
    contentType: 'protocolMessage',
  },
  {
    name: 'a history-sync notification',
    content: { protocolMessage: { type: HISTORY_SYNC_NOTIFICATION, historySyncNotification: { syncType: 0, chunkOrder: 1 } } },
    contentType: 'protocolMessage',
  },
  {
    name: 'an app-state key share',
    content: { protocolMessage: { type: APP_STATE_SYNC_KEY_SHARE, appStateSyncKeyShare: { keys: [] } } },
    contentType: 'protocolMessage',
  },
  // Baileys' getContentType never names the sender key: such a message has no content type.
  {
    name: 'a bare sender key',
    content: { senderKeyDistributionMessage: skdm },
    contentType: null,
  },
  { name: 'keep in chat', content: { keepInChatMessage: { key: { id: 'IN1' }, keepType: 1 } }, contentType: 'keepInChatMessage' },
  { name: 'a pin', content: { pinInChatMessage: { key: { id: 'IN1' }, type: 1 } }, contentType: 'pinInChatMessage' },
  {
    name: 'an edit to a place (nothing the inbox keeps)',
    content: { protocolMessage: { type: MESSAGE_EDIT, key: { id: 'IN3' }, editedMessage: { locationMessage: { degreesLatitude: 1, degreesLongitude: 2 } } } },
    contentType: 'protocolMessage',
  },
  {
    name: 'an edit without the edited id',
    content: { protocolMessage: { type: MESSAGE_EDIT, key: {}, editedMessage: { conversation: 'lost' } } },
    contentType: 'protocolMessage',
  },
];

/** A history-sync chunk as Baileys emits it (`messaging-history.set`), from the decoded chunk. */
export function historySet(chunk: proto.IHistorySync, isLatest?: boolean): BaileysEventMap['messaging-history.set'] {
  const decoded = proto.HistorySync.decode(proto.HistorySync.encode(chunk).finish());
  return { ...processHistoryMessage(decoded), isLatest: decoded.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND ? isLatest : undefined };
}

/** A stored message of a history chunk (`WebMessageInfo`: its timestamp a uint64). */
export const historyMessage = (id: string, chat: string, content: proto.IMessage, extra: proto.IWebMessageInfo = {}): proto.IHistorySyncMsg => ({
  message: { key: { remoteJid: chat, fromMe: false, id }, messageTimestamp: 1763000000, message: content, ...extra },
});
