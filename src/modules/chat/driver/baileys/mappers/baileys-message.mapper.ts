import { isJidBroadcast, isJidGroup, isJidNewsletter, toNumber, type WAMessage } from '@whiskeysockets/baileys';
import { peerTime } from '../../../../../infra/time/peer-time.js';
import type { ScanEdit, ScanMessage, ScanReaction, ScanRevoke } from '../../scan-driver.port.js';
import type { MessageBody, MessageUpdate, OwnJids } from './baileys-content.types.js';
import { normalisedJid } from './baileys-jid.js';
import { classifyMessage } from './baileys-message.classifier.js';
import { scanEdit, scanReaction, scanRevoke, type UpdateSender } from './baileys-update.mapper.js';

/** The other form of our own jid (LID for the phone jid and the reverse). */
const ownAlt = (jid: string, own: OwnJids): string | null => (jid === own.jid ? own.lid : jid === own.lid ? own.jid : null);

/** Who wrote a message: the participant in groups, the peer (or this number) in 1:1 chats. */
function senderOf(msg: WAMessage, chatJid: string, isGroup: boolean, own: OwnJids): { senderJid: string; senderJidAlt: string | null } {
  const { key } = msg;
  const fromMe = key.fromMe === true;
  // Our own number, by its phone jid: in a LID-addressed group the participant is our LID.
  if (isGroup && fromMe && own.jid) return { senderJid: own.jid, senderJidAlt: own.lid };
  if (isGroup) {
    const senderJid = normalisedJid(key.participant) ?? (fromMe ? own.jid : null) ?? chatJid;
    return { senderJid, senderJidAlt: normalisedJid(key.participantAlt) ?? (fromMe ? ownAlt(senderJid, own) : null) };
  }
  if (fromMe) return { senderJid: own.jid ?? chatJid, senderJidAlt: own.lid };
  return { senderJid: chatJid, senderJidAlt: normalisedJid(key.remoteJidAlt) };
}

/** The chat of a message, or null for one that is not a chat's: status updates, broadcast lists, channels, no id. */
function chatOf(msg: WAMessage): { chatJid: string; isGroup: boolean } | null {
  const chatJid = msg.key.remoteJid;
  if (!chatJid || !msg.key.id || isJidBroadcast(chatJid) || isJidNewsletter(chatJid)) return null;
  return { chatJid, isGroup: isJidGroup(chatJid) === true };
}

/**
 * A message's envelope around its body, or null for what is not a chat message: status updates,
 * broadcast lists and channels, a message without id. `now` is when it arrived: the time of a
 * message whose own timestamp is unusable.
 */
function envelope(msg: WAMessage, body: MessageBody, own: OwnJids, now: Date): ScanMessage | null {
  const chat = chatOf(msg);
  if (!chat) return null;
  const { chatJid, isGroup } = chat;
  const seconds = toNumber(msg.messageTimestamp as number | null | undefined);
  return {
    externalId: msg.key.id!,
    chatJid,
    chatJidAlt: isGroup ? null : normalisedJid(msg.key.remoteJidAlt),
    isGroup,
    fromMe: msg.key.fromMe === true,
    ...senderOf(msg, chatJid, isGroup, own),
    senderName: msg.pushName ?? '',
    ...body,
    timestamp: peerTime(seconds, now),
  };
}

/**
 * Where an update was sent and who sent it, as for a message and in the same chats: a reaction
 * to (or an edit of) a status update or a channel post is none of the inbox's.
 */
function updateSender(msg: WAMessage, own: OwnJids): UpdateSender | null {
  const chat = chatOf(msg);
  if (!chat) return null;
  return {
    chatJid: chat.chatJid,
    chatJidAlt: chat.isGroup ? null : normalisedJid(msg.key.remoteJidAlt),
    ...senderOf(msg, chat.chatJid, chat.isGroup, own),
    fromMe: msg.key.fromMe === true,
  };
}

/**
 * One Baileys message as our `ScanMessage`, or null for what is not a chat message: status
 * updates, broadcast lists and channels, undecryptable stubs (the same id comes again once
 * decrypted), updates (edits, reactions, revokes) and protocol messages.
 */
export function mapMessage(msg: WAMessage, own: OwnJids, now: Date = new Date()): ScanMessage | null {
  const classified = classifyMessage(msg);
  return classified.class === 'message' ? envelope(msg, classified.body, own, now) : null;
}

export function mapMessages(messages: readonly WAMessage[], own: OwnJids, now?: Date): ScanMessage[] {
  return messages.map((msg) => mapMessage(msg, own, now)).filter((msg): msg is ScanMessage => msg !== null);
}

/** A live upsert, each message classified once: its messages and each kind of update among them, each in their order. */
export interface MappedUpsert {
  messages: ScanMessage[];
  edits: ScanEdit[];
  reactions: ScanReaction[];
  revokes: ScanRevoke[];
}

function addUpdate(mapped: MappedUpsert, msg: WAMessage, update: MessageUpdate, own: OwnJids): void {
  const sender = updateSender(msg, own);
  if (!sender) return;
  switch (update.type) {
    case 'edit':
      mapped.edits.push(scanEdit(sender, update));
      return;
    case 'reaction':
      mapped.reactions.push(scanReaction(sender, update));
      return;
    case 'revoke':
      mapped.revokes.push(scanRevoke(sender, update));
      return;
  }
}

export function mapUpsert(messages: readonly WAMessage[], own: OwnJids, now?: Date): MappedUpsert {
  const mapped: MappedUpsert = { messages: [], edits: [], reactions: [], revokes: [] };
  for (const msg of messages) {
    const classified = classifyMessage(msg);
    switch (classified.class) {
      case 'message': {
        const message = envelope(msg, classified.body, own, now ?? new Date());
        if (message) mapped.messages.push(message);
        break;
      }
      case 'update':
        addUpdate(mapped, msg, classified.update, own);
        break;
      case 'protocol':
        break;
    }
  }
  return mapped;
}
