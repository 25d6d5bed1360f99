import { type InboundMessage, withoutNul } from '../../inbox/ingest/inbound-message.js';
import { normalizeLid, normalizePhone } from '../../inbox/jid.js';
import { keepsFileName } from '../../inbox/message-kinds.js';
import type { ScanMessage } from '../driver/scan-driver.port.js';

const PHONE_SERVER = 's.whatsapp.net';
// file_size is a Postgres integer; WhatsApp documents may be up to 2 GB.
const MAX_FILE_SIZE = 2_147_483_647;

const serverOf = (jid: string | null): string => jid?.split('@')[1] ?? '';

/** The phone digits of `<digits>[:device]@s.whatsapp.net`, else null. */
export function phoneOfJid(jid: string | null): string | null {
  if (!jid || serverOf(jid) !== PHONE_SERVER) return null;
  return normalizePhone(jid.split('@')[0]!.split(':')[0]);
}

/** The LID user part of `<digits>[:device]@lid`, else null. */
export function lidOfJid(jid: string | null): string | null {
  return jid && serverOf(jid) === 'lid' ? normalizeLid(jid) : null;
}

/**
 * A scan message as the inbox stores it: every kind, `unsupported` included (the driver hands
 * over no protocol traffic). The chat keeps the jid the channel delivered; a one-to-one chat
 * addressed by LID takes the phone number from its alternate jid when the channel knows it, so
 * the contact holds both and `chat_phone` is set. Media has no address until the download job has
 * stored it (`media_url` empty); only a kind that keeps file names (a document) keeps the
 * sender's. The playing time, the quoted message's id and the details (a place, cards, a poll,
 * mentions) go along as the driver read them. NUL characters are removed from its texts (withoutNul).
 */
export function toInboundMessage(message: ScanMessage, chatName: string | null = null): InboundMessage {
  const direction = message.fromMe ? 'outbound' : 'inbound';
  // In a one-to-one chat the sender of an inbound message is the peer: its alternate jid helps too.
  const peerAlt = message.fromMe ? null : message.senderJidAlt;
  const contact = message.isGroup
    ? null
    : {
        phone: phoneOfJid(message.chatJid) ?? phoneOfJid(message.chatJidAlt) ?? phoneOfJid(peerAlt),
        lid: lidOfJid(message.chatJid) ?? lidOfJid(message.chatJidAlt) ?? lidOfJid(peerAlt),
        // Our own push name on a message we sent is not the other person's name.
        name: message.fromMe ? null : message.senderName,
      };
  return withoutNul({
    channel: 'scan',
    externalId: message.externalId,
    chatJid: message.chatJid,
    isGroup: message.isGroup,
    chatName: chatName ?? message.chatName ?? null,
    direction,
    senderJid: message.senderJid,
    senderName: message.senderName,
    contact,
    type: message.type,
    content: message.content,
    media: message.media
      ? {
          url: '',
          mimeType: message.media.mimeType,
          fileName: keepsFileName(message.type) ? message.media.fileName : '',
          fileSize: Math.min(message.media.fileSize, MAX_FILE_SIZE),
        }
      : null,
    durationS: message.durationS ?? 0,
    quotedExternalId: message.quotedExternalId ?? '',
    details: message.details ?? null,
    timestamp: message.timestamp,
  });
}
