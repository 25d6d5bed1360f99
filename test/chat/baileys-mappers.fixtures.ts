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
/** What a poll, an edit or a text with a preview carries beside its content. */
export const contextInfo = { messageSecret: MESSAGE_SECRET };
/** A group's sender key, as it rides along the first message of a sender to a group. */
export const skdm = { groupId: GROUP, axolotlSenderKeyDistributionMessage: Buffer.alloc(8, 1) };
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

/** Reactions and revokes as WhatsApp sends them: updates of the message they name. */
export const REACTION_AND_REVOKE_CONTENT: { name: string; content: proto.IMessage; update: Record<string, unknown> }[] = [
  {
    name: 'a reaction',
    content: { reactionMessage: { key: { remoteJid: PEER, fromMe: true, id: 'OUT1' }, text: '👍', senderTimestampMs: 1 } },
    update: { type: 'reaction', externalId: 'OUT1', emoji: '👍' },
  },
  {
    name: 'a reaction taken back (empty emoji)',
    content: { reactionMessage: { key: { remoteJid: PEER, fromMe: true, id: 'OUT1' }, text: '', senderTimestampMs: 2 } },
    update: { type: 'reaction', externalId: 'OUT1', emoji: '' },
  },
  {
    name: 'a revoke (delete for everyone)',
    content: { protocolMessage: { type: REVOKE, key: { remoteJid: PEER, fromMe: false, id: 'IN1' } } },
    update: { type: 'revoke', externalId: 'IN1' },
  },
];

/** Content that is no message: protocol traffic, what acts on other messages, updates the inbox keeps nothing of. */
export const PROTOCOL_CONTENT: { name: string; content: proto.IMessage; contentType: string | null }[] = [
  {
    name: 'an encrypted reaction',
    content: { encReactionMessage: { targetMessageKey: { id: 'OUT1' }, encPayload: Buffer.alloc(16), encIv: Buffer.alloc(12) } },
    contentType: 'encReactionMessage',
  },
  {
    name: 'a reaction naming no message',
    content: { reactionMessage: { text: '👍' } },
    contentType: 'reactionMessage',
  },
  {
    name: 'a poll vote',
    content: {
      pollUpdateMessage: { pollCreationMessageKey: { remoteJid: PEER, id: 'POLL1' }, vote: { encPayload: Buffer.alloc(16), encIv: Buffer.alloc(12) } },
    },
    contentType: 'pollUpdateMessage',
  },
  {
    name: 'a revoke naming no message',
    content: { protocolMessage: { type: REVOKE, key: {} } },
    contentType: 'protocolMessage',
  },
  {
    name: 'an event response',
    content: { encEventResponseMessage: { eventCreationMessageKey: { id: 'EV1' }, encPayload: Buffer.alloc(16), encIv: Buffer.alloc(12) } },
    contentType: 'encEventResponseMessage',
  },
  { name: 'an album announcement (its items arrive one by one)', content: { albumMessage: { expectedImageCount: 3 } }, contentType: 'albumMessage' },
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
