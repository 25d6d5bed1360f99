// Reads a `<message>` a linked device sent, as its recipients would: each pairwise copy
// (pkmsg/msg) decrypted by the contact it is for, sender keys kept from those copies, a group's
// `skmsg` decrypted with the sender's key, and image/document bytes fetched from the media host
// and decrypted with the message's media key.
import { getBinaryNodeChild, proto, unpadRandomMax16, type BinaryNode } from '@whiskeysockets/baileys';
import { decryptMedia } from './media-crypto.js';
import type { MediaHost } from './media-host.js';
import type { SenderKeyStore } from './sender-keys.js';
import type { LinkedDevice, SentMedia, SentMessage, World } from './sim-model.js';
import { bytes, children } from './stanzas.js';

export interface ReadContext {
  readonly world: World;
  readonly media: MediaHost;
  readonly senderKeys: SenderKeyStore;
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export async function readDeviceMessage(ctx: ReadContext, device: LinkedDevice, node: BinaryNode): Promise<SentMessage | undefined> {
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
  const sent: SentMessage = { id: node.attrs.id ?? '', from: device.account.phone, to, message: message ?? {} };
  if (contact) sent.contact = contact;
  if (group) sent.group = group;
  const text = message?.conversation ?? message?.extendedTextMessage?.text;
  if (text) sent.text = text;
  if (message) {
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

function fetchMedia(host: MediaHost, message: proto.IMessage): SentMedia | undefined {
  const kind = message.imageMessage ? 'image' : message.documentMessage ? 'document' : undefined;
  const content = message.imageMessage ?? message.documentMessage;
  if (!kind || !content) return undefined;
  if (!content.mediaKey?.length) throw new Error('no media key');
  const enc = host.file(content.directPath || content.url || '');
  if (!enc) throw new Error(`nothing was uploaded at ${content.directPath || content.url}`);
  const data = decryptMedia(enc, content.mediaKey, kind, { fileSha256: content.fileSha256, fileEncSha256: content.fileEncSha256 });
  const media: SentMedia = { kind, mimetype: content.mimetype ?? '', data };
  if (content.caption) media.caption = content.caption;
  if (message.documentMessage?.fileName) media.fileName = message.documentMessage.fileName;
  return media;
}
