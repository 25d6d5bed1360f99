// Reads a `<message>` a linked device sent, as its recipients would: each pairwise copy
// (pkmsg/msg) decrypted by the contact it is for, sender keys kept from those copies, a group's
// `skmsg` decrypted with the sender's key, and the bytes of images, documents, videos, audio
// (voice notes too) and stickers fetched from the media host and decrypted with the message's
// media key. Locations, contact cards, reactions, deletes, edits and a reply's quote are read out
// beside the raw message, so tests assert what the contact's phone would show.
import { getBinaryNodeChild, proto, unpadRandomMax16, type BinaryNode } from '@whiskeysockets/baileys';
import { decryptMedia } from './media-crypto.js';
import type { MediaHost } from './media-host.js';
import type { SenderKeyStore } from './sender-keys.js';
import type { LinkedDevice, SentKey, SentMedia, SentMessage, World } from './sim-model.js';
import { bytes, children } from './stanzas.js';

export interface ReadContext {
  readonly world: World;
  readonly media: MediaHost;
  readonly senderKeys: SenderKeyStore;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `at`: when the node arrived (ms epoch), taken before decrypting so slow decryption does not shift it. */
export async function readDeviceMessage(ctx: ReadContext, device: LinkedDevice, node: BinaryNode, at = Date.now()): Promise<SentMessage | undefined> {
  const to = node.attrs.to ?? '';
  const group = to.endsWith('@g.us') ? to : undefined;
  const errors: string[] = [];
  let message: proto.IMessage | undefined;
  let contact: string | undefined;
  for (const copy of children(getBinaryNodeChild(node, 'participants'))) {
    const peer = ctx.world.contactByJid(copy.attrs.jid ?? '');
    const enc = getBinaryNodeChild(copy, 'enc');
    const cipher = bytes(enc);
    // Copies for the account's own devices are not for a contact: nobody here reads them.
    if (!peer || !enc || !cipher) continue;
    try {
      // Every copy is decrypted, so each contact's session with the device stays in step.
      const plain = proto.Message.decode(unpadRandomMax16(await peer.peer.decryptFrom(device.signalAddress, device.id, enc.attrs.type ?? '', cipher)));
      const distribution = plain.senderKeyDistributionMessage;
      if (distribution?.groupId && distribution.axolotlSenderKeyDistributionMessage?.length) {
        ctx.senderKeys.store(distribution.groupId, device.jid, distribution.axolotlSenderKeyDistributionMessage);
      }
      if (!group && !message) {
        message = plain;
        contact = peer.phone;
      }
    } catch (error) {
      errors.push(`copy for ${copy.attrs.jid}: ${reason(error)}`);
    }
  }
  if (group) {
    const skmsg = bytes(children(node).find((child) => child.tag === 'enc' && child.attrs.type === 'skmsg'));
    try {
      if (skmsg) message = proto.Message.decode(unpadRandomMax16(ctx.senderKeys.decrypt(group, device.jid, skmsg)));
    } catch (error) {
      errors.push(`group message: ${reason(error)}`);
    }
  }
  if (!message && errors.length === 0) return undefined;
  const sent: SentMessage = { id: node.attrs.id ?? '', from: device.account.phone, to, message: message ?? {}, at };
  if (contact) sent.contact = contact;
  if (group) sent.group = group;
  const text = message?.conversation ?? message?.extendedTextMessage?.text;
  if (text) sent.text = text;
  if (message) {
    readParts(message, sent);
    try {
      const media = fetchMedia(ctx.media, message);
      if (media) sent.media = media;
    } catch (error) {
      errors.push(`media: ${reason(error)}`);
    }
  }
  if (errors.length) sent.error = errors.join('; ');
  return sent;
}

const keyOf = (key: proto.IMessageKey | null | undefined): SentKey => ({
  id: key?.id ?? '',
  fromMe: Boolean(key?.fromMe),
  ...(key?.remoteJid ? { remoteJid: key.remoteJid } : {}),
  ...(key?.participant ? { participant: key.participant } : {}),
});

/** The structured parts of a message, as the contact's phone reads them. */
function readParts(message: proto.IMessage, sent: SentMessage): void {
  const location = message.locationMessage;
  if (location) {
    sent.location = { latitude: location.degreesLatitude ?? 0, longitude: location.degreesLongitude ?? 0 };
    if (location.name) sent.location.name = location.name;
    if (location.address) sent.location.address = location.address;
    if (location.url) sent.location.url = location.url;
  }
  if (message.contactMessage) sent.contacts = { displayName: message.contactMessage.displayName ?? '', vcards: [message.contactMessage.vcard ?? ''] };
  if (message.contactsArrayMessage) {
    const cards = message.contactsArrayMessage;
    sent.contacts = { displayName: cards.displayName ?? '', vcards: (cards.contacts ?? []).map((card) => card.vcard ?? '') };
  }
  if (message.reactionMessage) sent.reaction = { emoji: message.reactionMessage.text ?? '', key: keyOf(message.reactionMessage.key) };
  const protocol = message.protocolMessage;
  if (protocol?.type === proto.Message.ProtocolMessage.Type.REVOKE) sent.revoke = keyOf(protocol.key);
  if (protocol?.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
    const edited = protocol.editedMessage;
    sent.edit = { key: keyOf(protocol.key), text: edited?.conversation ?? edited?.extendedTextMessage?.text ?? '' };
  }
  // The reply's quote sits in the contextInfo of whichever content the message carries.
  for (const content of Object.values(message) as unknown[]) {
    const context = (content as { contextInfo?: proto.IContextInfo | null } | null)?.contextInfo;
    if (!context?.stanzaId) continue;
    const quoted = context.quotedMessage;
    sent.quoted = { id: context.stanzaId };
    if (context.participant) sent.quoted.participant = context.participant;
    const text = quoted?.conversation ?? quoted?.extendedTextMessage?.text;
    if (text) sent.quoted.text = text;
    break;
  }
}

const MEDIA_FIELDS = [
  ['imageMessage', 'image'],
  ['documentMessage', 'document'],
  ['videoMessage', 'video'],
  ['audioMessage', 'audio'],
  ['stickerMessage', 'sticker'],
] as const;

function fetchMedia(host: MediaHost, message: proto.IMessage): SentMedia | undefined {
  const found = MEDIA_FIELDS.find(([field]) => message[field]);
  if (!found) return undefined;
  const [field, kind] = found;
  const content = message[field]!;
  if (!content.mediaKey?.length) throw new Error('no media key');
  const enc = host.file(content.directPath || content.url || '');
  if (!enc) throw new Error(`nothing was uploaded at ${content.directPath || content.url}`);
  const data = decryptMedia(enc, content.mediaKey, kind, { fileSha256: content.fileSha256, fileEncSha256: content.fileEncSha256 });
  const media: SentMedia = { kind, mimetype: content.mimetype ?? '', data };
  const caption = message.imageMessage?.caption ?? message.videoMessage?.caption ?? message.documentMessage?.caption;
  if (caption) media.caption = caption;
  if (message.documentMessage?.fileName) media.fileName = message.documentMessage.fileName;
  const timed = message.audioMessage ?? message.videoMessage;
  if (timed?.seconds) media.seconds = timed.seconds;
  if (message.audioMessage) media.ptt = Boolean(message.audioMessage.ptt);
  if (message.audioMessage?.waveform?.length) media.waveform = [...message.audioMessage.waveform];
  if (message.stickerMessage) media.animated = Boolean(message.stickerMessage.isAnimated);
  return media;
}
