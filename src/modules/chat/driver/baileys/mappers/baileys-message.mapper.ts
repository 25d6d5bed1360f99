import { isJidBroadcast, isJidGroup, isJidNewsletter, toNumber, type WAMessage } from '@whiskeysockets/baileys';
import { peerTime } from '../../../../../infra/time/peer-time.js';
import type { ScanEdit, ScanMessage } from '../../scan-driver.port.js';
import type { MessageBody, OwnJids } from './baileys-content.types.js';
import { normalisedJid } from './baileys-jid.js';
import { classifyMessage } from './baileys-message.classifier.js';
import { scanEdit } from './baileys-update.mapper.js';

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

/**
 * A message's envelope around its body, or null for what is not a chat message: status updates,
 * broadcast lists and channels, a message without id. `now` is when it arrived: the time of a
 * message whose own timestamp is unusable.
 */
function envelope(msg: WAMessage, body: MessageBody, own: OwnJids, now: Date): ScanMessage | null {
  const { key } = msg;
  const chatJid = key.remoteJid;
  if (!chatJid || !key.id || isJidBroadcast(chatJid) || isJidNewsletter(chatJid)) return null;
  const isGroup = isJidGroup(chatJid) === true;
  const seconds = toNumber(msg.messageTimestamp as number | null | undefined);
  return {
    externalId: key.id,
    chatJid,
    chatJidAlt: isGroup ? null : normalisedJid(key.remoteJidAlt),
    isGroup,
    fromMe: key.fromMe === true,
    ...senderOf(msg, chatJid, isGroup, own),
    senderName: msg.pushName ?? '',
    ...body,
    timestamp: peerTime(seconds, now),
  };
}

/**
 * One Baileys message as our `ScanMessage`, or null for what is not a chat message: status
 * updates, broadcast lists and channels, undecryptable stubs (the same id comes again once
 * decrypted), updates (edits), protocol messages and reactions.
 */
export function mapMessage(msg: WAMessage, own: OwnJids, now: Date = new Date()): ScanMessage | null {
  const classified = classifyMessage(msg);
  return classified.class === 'message' ? envelope(msg, classified.body, own, now) : null;
}

export function mapMessages(messages: readonly WAMessage[], own: OwnJids, now?: Date): ScanMessage[] {
  return messages.map((msg) => mapMessage(msg, own, now)).filter((msg): msg is ScanMessage => msg !== null);
}

/** A live upsert's messages, each classified once: the messages, and the edits among them (in their order). */
export function mapUpsert(messages: readonly WAMessage[], own: OwnJids, now?: Date): { messages: ScanMessage[]; edits: ScanEdit[] } {
  const mapped: ScanMessage[] = [];
  const edits: ScanEdit[] = [];
  for (const msg of messages) {
    const classified = classifyMessage(msg);
    switch (classified.class) {
      case 'message': {
        const message = envelope(msg, classified.body, own, now ?? new Date());
        if (message) mapped.push(message);
        break;
      }
      case 'update':
        // An edit names the message it edits; of its envelope it needs only the chat.
        if (msg.key.remoteJid && classified.update.type === 'edit') edits.push(scanEdit(msg.key.remoteJid, classified.update));
        // Reactions and revokes (the next updates) are handed over from here.
        break;
      case 'protocol':
        break;
    }
  }
  return { messages: mapped, edits };
}
