import {
  type BaileysEventMap,
  BufferJSON,
  getContentType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  jidNormalizedUser,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { peerTime } from '../../../../infra/time/peer-time.js';
import type { ScanEdit, ScanHistoryBatch, ScanLidMapping, ScanMedia, ScanMessage, ScanMessageType, ScanReceipt, ScanReceiptStatus } from '../scan-driver.port.js';

/** Who the socket is logged in as, for own messages (normalised jids, no device part). */
export interface OwnJids {
  jid: string | null;
  lid: string | null;
}

/** Content that is not a message a person wrote: protocol traffic, reactions, edits, poll votes. */
const NOT_A_MESSAGE = new Set<string>([
  'protocolMessage',
  'reactionMessage',
  'encReactionMessage',
  'pollUpdateMessage',
  'keepInChatMessage',
  'pinInChatMessage',
  'encEventResponseMessage',
  'senderKeyDistributionMessage',
  'messageContextInfo',
  'secretEncryptedMessage',
]);

/** What `downloadMedia` needs to fetch and decrypt a file later, from any process. */
export interface BaileysMediaRef {
  kind: 'image' | 'document';
  mediaKey: Uint8Array | string | null | undefined;
  directPath: string | null | undefined;
  url: string | null | undefined;
}

const normalised = (jid: string | null | undefined): string | null => (jid ? jidNormalizedUser(jid) || null : null);

function media(kind: 'image' | 'document', content: proto.Message.IImageMessage | proto.Message.IDocumentMessage, fileName: string): ScanMedia {
  const ref: BaileysMediaRef = { kind, mediaKey: content.mediaKey, directPath: content.directPath, url: content.url };
  return {
    mimeType: content.mimetype ?? (kind === 'image' ? 'image/jpeg' : 'application/octet-stream'),
    fileName,
    fileSize: toNumber(content.fileLength),
    ref: JSON.stringify(ref, BufferJSON.replacer),
  };
}

function body(message: proto.IMessage): { type: ScanMessageType; content: string; media: ScanMedia | null } | null {
  const kind = getContentType(message);
  if (!kind || NOT_A_MESSAGE.has(kind)) return null;
  switch (kind) {
    case 'conversation':
      return { type: 'text', content: message.conversation ?? '', media: null };
    case 'extendedTextMessage':
      return { type: 'text', content: message.extendedTextMessage?.text ?? '', media: null };
    case 'imageMessage': {
      const image = message.imageMessage!;
      return { type: 'image', content: image.caption ?? '', media: media('image', image, '') };
    }
    case 'documentMessage': {
      const document = message.documentMessage!;
      return { type: 'document', content: document.caption ?? '', media: media('document', document, document.fileName ?? document.title ?? '') };
    }
    case 'videoMessage': {
      // The inbox has no video type: a caption is still what the person wrote, kept as text.
      const caption = message.videoMessage?.caption ?? '';
      return caption ? { type: 'text', content: caption, media: null } : { type: 'other', content: '', media: null };
    }
    default:
      return { type: 'other', content: '', media: null };
  }
}

/**
 * Edits among live messages: a `protocolMessage` of type MESSAGE_EDIT (possibly inside an
 * `editedMessage` wrapper) names the edited message and carries its new content, whose text or
 * caption replaces the stored one. The edit itself is not a message.
 */
export function mapEdits(messages: readonly WAMessage[]): ScanEdit[] {
  const edits: ScanEdit[] = [];
  for (const msg of messages) {
    const chatJid = msg.key.remoteJid;
    const protocol = normalizeMessageContent(msg.message)?.protocolMessage;
    if (!chatJid || protocol?.type !== proto.Message.ProtocolMessage.Type.MESSAGE_EDIT || !protocol.key?.id || !protocol.editedMessage) continue;
    const edited = normalizeMessageContent(protocol.editedMessage);
    const mapped = edited ? body(edited) : null;
    if (!mapped || mapped.type === 'other') continue;
    edits.push({ chatJid, externalId: protocol.key.id, content: mapped.content });
  }
  return edits;
}

/** The other form of our own jid (LID for the phone jid and the reverse). */
const ownAlt = (jid: string, own: OwnJids): string | null => (jid === own.jid ? own.lid : jid === own.lid ? own.jid : null);

/**
 * One Baileys message as our `ScanMessage`, or null for what is not a chat message: status
 * updates, broadcast lists and channels, undecryptable stubs (the same id comes again once
 * decrypted), protocol messages and reactions.
 */
export function mapMessage(msg: WAMessage, own: OwnJids): ScanMessage | null {
  const { key } = msg;
  const chatJid = key.remoteJid;
  if (!chatJid || !key.id || isJidBroadcast(chatJid) || isJidNewsletter(chatJid)) return null;
  const content = normalizeMessageContent(msg.message);
  if (!content) return null;
  const mapped = body(content);
  if (!mapped) return null;

  const isGroup = isJidGroup(chatJid) === true;
  const fromMe = key.fromMe === true;
  let senderJid: string;
  let senderJidAlt: string | null;
  if (isGroup && fromMe && own.jid) {
    // Our own number, by its phone jid: in a LID-addressed group the participant is our LID.
    senderJid = own.jid;
    senderJidAlt = own.lid;
  } else if (isGroup) {
    senderJid = normalised(key.participant) ?? (fromMe ? own.jid : null) ?? chatJid;
    senderJidAlt = normalised(key.participantAlt) ?? (fromMe ? ownAlt(senderJid, own) : null);
  } else if (fromMe) {
    senderJid = own.jid ?? chatJid;
    senderJidAlt = own.lid;
  } else {
    senderJid = chatJid;
    senderJidAlt = normalised(key.remoteJidAlt);
  }
  const seconds = toNumber(msg.messageTimestamp as number | null | undefined);
  return {
    externalId: key.id,
    chatJid,
    chatJidAlt: isGroup ? null : normalised(key.remoteJidAlt),
    isGroup,
    fromMe,
    senderJid,
    senderJidAlt,
    senderName: msg.pushName ?? '',
    ...mapped,
    timestamp: peerTime(seconds, new Date()),
  };
}

export function mapMessages(messages: readonly WAMessage[], own: OwnJids): ScanMessage[] {
  return messages.map((msg) => mapMessage(msg, own)).filter((msg): msg is ScanMessage => msg !== null);
}

const Status = proto.WebMessageInfo.Status;

export function receiptStatus(status: number | null | undefined): ScanReceiptStatus | null {
  switch (status) {
    case Status.SERVER_ACK:
      return 'sent';
    case Status.DELIVERY_ACK:
      return 'delivered';
    case Status.READ:
    case Status.PLAYED:
      return 'read';
    default:
      return null;
  }
}

function userReceiptStatus(receipt: proto.IUserReceipt): ScanReceiptStatus | null {
  if (receipt.readTimestamp || receipt.playedTimestamp) return 'read';
  return receipt.receiptTimestamp ? 'delivered' : null;
}

const receipt = (chatJid: string | null | undefined, externalId: string | null | undefined, status: ScanReceiptStatus | null): ScanReceipt[] =>
  chatJid && externalId && status ? [{ chatJid, externalId, status }] : [];

/**
 * Status moves of messages this number sent. Baileys reports them as `messages.update` (1:1),
 * `message-receipt.update` (per group participant), or, when its event buffer held the own
 * message, folded into that message's upsert (`status`, `userReceipt`): all three are read.
 */
export function mapReceipts(events: Pick<Partial<BaileysEventMap>, 'messages.update' | 'message-receipt.update' | 'messages.upsert'>): ScanReceipt[] {
  const receipts: ScanReceipt[] = [];
  for (const msg of events['messages.upsert']?.messages ?? []) {
    if (!msg.key.fromMe) continue;
    receipts.push(...receipt(msg.key.remoteJid, msg.key.id, receiptStatus(msg.status)));
    for (const user of msg.userReceipt ?? []) receipts.push(...receipt(msg.key.remoteJid, msg.key.id, userReceiptStatus(user)));
  }
  for (const { key, update } of events['messages.update'] ?? []) {
    if (key.fromMe) receipts.push(...receipt(key.remoteJid, key.id, receiptStatus(update.status)));
  }
  for (const { key, receipt: user } of events['message-receipt.update'] ?? []) {
    if (key.fromMe) receipts.push(...receipt(key.remoteJid, key.id, userReceiptStatus(user)));
  }
  return receipts;
}

export function mapLidMapping(mapping: { lid: string; pn: string }): ScanLidMapping | null {
  const lid = normalised(mapping.lid);
  const phone = normalised(mapping.pn);
  return lid && phone ? { lid, phone } : null;
}

/** A history-sync chunk: its messages mapped like live ones, names from its chats and contacts. */
export function mapHistory(set: BaileysEventMap['messaging-history.set'], own: OwnJids): ScanHistoryBatch {
  const chatNames: Record<string, string> = {};
  for (const contact of set.contacts ?? []) {
    const name = contact.name || contact.notify || contact.verifiedName;
    if (contact.id && name) chatNames[contact.id] = name;
  }
  for (const chat of set.chats ?? []) {
    if (chat.id && chat.name) chatNames[chat.id] = chat.name;
  }
  return {
    messages: mapMessages(set.messages ?? [], own),
    chatNames,
    lidMappings: (set.lidPnMappings ?? []).map(mapLidMapping).filter((m): m is ScanLidMapping => m !== null),
    progress: typeof set.progress === 'number' ? set.progress : null,
    // The phone's last batch of the initial sync says 100 %. Baileys' own `isLatest` only marks
    // the first batch it processed after the link (more batches follow), and on-demand batches
    // are not part of the initial sync.
    isLatest: set.progress === 100 && set.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND,
  };
}
