import type { AnyMessageContent, MiscMessageGenerationOptions, proto, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import { readOggOpus, readWebp } from '../../../../../infra/media/media-formats.js';
import type { ContactCard, LocationDetails } from '../../../../inbox/message-details.js';
import { MESSAGE_KINDS } from '../../../../inbox/message-kinds.js';
import type { ScanContent, ScanMessageRef, ScanOutgoing, StoredScanMessage } from '../../scan-driver.port.js';

/** What `sendMessage` takes for one send: the content, and the options (the message a reply quotes). */
export interface BaileysSend {
  content: AnyMessageContent;
  options: MiscMessageGenerationOptions;
}

/** A message of chat `jid` as Baileys keys it (reactions, deletes and edits name their target so). */
export const messageKey = (jid: string, ref: ScanMessageRef): WAMessageKey => ({
  remoteJid: jid,
  id: ref.externalId,
  fromMe: ref.fromMe,
  ...(ref.participant ? { participant: ref.participant } : {}),
});

/**
 * The message a reply quotes, as Baileys copies it into the reply's `contextInfo` (`stanzaId`,
 * `participant`, `quotedMessage`). Recipients show their own copy of the quoted message; the text
 * here is what they show without one (a file's caption, or its kind in brackets).
 */
function quotedMessage(jid: string, ref: ScanMessageRef): WAMessage {
  return { key: messageKey(jid, ref), message: { conversation: ref.content || MESSAGE_KINDS[ref.type].preview.placeholder } };
}

/** What the service sends to chat `jid`, as Baileys' `sendMessage` content and options. */
export function outgoingContent(jid: string, outgoing: ScanOutgoing): BaileysSend {
  switch (outgoing.type) {
    case 'reaction':
      return { content: { react: { text: outgoing.emoji, key: messageKey(jid, outgoing.target) } }, options: {} };
    case 'revoke':
      return { content: { delete: messageKey(jid, outgoing.target) }, options: {} };
    case 'edit':
      return { content: { text: outgoing.body, edit: messageKey(jid, outgoing.target), linkPreview: null }, options: {} };
    default:
      return {
        content: newMessage(outgoing),
        options: {
          ...(outgoing.quoted ? { quoted: quotedMessage(jid, outgoing.quoted) } : {}),
          // The service's own id (waMessageId): a resend after a crash is the same message to WhatsApp.
          ...(outgoing.messageId ? { messageId: outgoing.messageId } : {}),
        },
      };
  }
}

function newMessage(outgoing: ScanContent): AnyMessageContent {
  switch (outgoing.type) {
    case 'text':
      // No link preview: Baileys would fetch a URL in the text itself (link-preview-js, and the
      // preview's image), past the address policy every fetch of a user's URL goes through.
      return { text: outgoing.body, linkPreview: null };
    case 'image':
      return { image: outgoing.data, mimetype: outgoing.mimeType, caption: outgoing.caption || undefined };
    case 'document':
      return { document: outgoing.data, mimetype: outgoing.mimeType, fileName: outgoing.fileName, caption: outgoing.caption || undefined };
    case 'video':
      // An empty thumbnail: without one Baileys runs ffmpeg (a shell command) to cut one, which the
      // service neither ships nor wants to spawn. Recipients show the video without a preview frame.
      return { video: outgoing.data, mimetype: outgoing.mimeType, caption: outgoing.caption || undefined, jpegThumbnail: '', ...seconds(outgoing.durationS) };
    case 'audio':
      // Without `seconds` Baileys reads the playing time itself (music-metadata, in process).
      return { audio: outgoing.data, mimetype: outgoing.mimeType, ptt: false, ...seconds(outgoing.durationS) };
    case 'voice':
      return voiceNote(outgoing.data, outgoing.mimeType, outgoing.durationS);
    case 'sticker':
      return { sticker: outgoing.data, mimetype: 'image/webp', isAnimated: readWebp(outgoing.data)?.animated ?? false };
    case 'location':
      return { location: locationMessage(outgoing.location) };
    case 'contacts':
      return { contacts: contactsContent(outgoing.contacts) };
  }
}

const seconds = (durationS: number | undefined): { seconds?: number } => (durationS ? { seconds: durationS } : {});

/**
 * A push-to-talk voice note. Its waveform comes from the file (readOggOpus): without one Baileys
 * would try to decode the audio with an optional package the service does not install, and log
 * its failure on every voice note.
 */
function voiceNote(data: Buffer, mimetype: string, durationS: number | undefined): AnyMessageContent {
  const ogg = readOggOpus(data);
  // `waveform` is read by Baileys' media preparation (it sets the audio message's field) but is
  // missing from its content type; passed beside the declared fields.
  const extra: { waveform?: Uint8Array } = ogg ? { waveform: ogg.waveform } : {};
  return { audio: data, mimetype, ptt: true, ...seconds(durationS || ogg?.durationS), ...extra };
}

function locationMessage(location: LocationDetails): proto.Message.ILocationMessage {
  return {
    degreesLatitude: location.latitude,
    degreesLongitude: location.longitude,
    ...(location.name ? { name: location.name } : {}),
    ...(location.address ? { address: location.address } : {}),
    ...(location.url ? { url: location.url } : {}),
  };
}

/** One card is a contact message, several a contacts array, named as WhatsApp's share sheet names them. */
function contactsContent(cards: readonly ContactCard[]): { displayName: string; contacts: proto.Message.IContactMessage[] } {
  const displayName = cards.length === 1 ? cards[0]!.name : `${cards.length} contacts`;
  return { displayName, contacts: cards.map((card) => ({ displayName: card.name, vcard: card.vcard })) };
}

/**
 * A sent message rebuilt from the store for the channel's resend request (`getMessage`): texts,
 * locations and contact cards. A file is not re-sent (its upload is not kept).
 */
export function resendContent(stored: StoredScanMessage | undefined): proto.IMessage | undefined {
  switch (stored?.type) {
    case 'text':
      return { conversation: stored.content };
    case 'location':
      return stored.details?.location ? { locationMessage: locationMessage(stored.details.location) } : undefined;
    case 'contacts': {
      const cards = stored.details?.contacts;
      if (!cards?.length) return undefined;
      const { displayName, contacts } = contactsContent(cards);
      return cards.length === 1 ? { contactMessage: contacts[0] } : { contactsArrayMessage: { displayName, contacts } };
    }
    default:
      return undefined;
  }
}
