// Turns an InboundMessage into the `<message>` stanza the server would push to one linked device,
// Signal-encrypted from the sender (a contact, or the account's own phone) to that device.
import { proto, writeRandomPadMax16, type BinaryNode } from '@whiskeysockets/baileys';
import type { InboundMessage, LinkedDevice } from './sim-model.js';

export const messageStanza = async (device: LinkedDevice, msg: InboundMessage, offline: boolean): Promise<BinaryNode> => {
  const peer = msg.from === 'self' ? device.account.phonePeer : msg.from.peer;
  const plain = writeRandomPadMax16(proto.Message.encode(msg.message).finish());
  const { type, ciphertext } = await peer.encryptFor(device.signalAddress, device.id, device.bundle, plain);
  const attrs: Record<string, string> = { id: msg.id, t: msg.t, type: msg.type };
  if (msg.from === 'self' && msg.recipient) {
    // What the phone itself sent in a chat reaches its companions from its own PN (device 0),
    // the chat in `recipient`: Baileys reads that as fromMe in that chat.
    attrs.from = `${device.account.phone}@s.whatsapp.net`;
    attrs.recipient = msg.recipient;
    attrs.addressing_mode = 'pn';
  } else if (msg.from === 'self') {
    attrs.from = `${device.account.lid}@lid`;
    attrs.addressing_mode = 'lid';
  } else {
    const contact = msg.from;
    const sender = msg.lid ? contact.lidJid : contact.pnJid;
    attrs.notify = contact.name;
    attrs.addressing_mode = msg.lid ? 'lid' : 'pn';
    if (msg.group) {
      attrs.from = msg.group;
      attrs.participant = sender;
      if (msg.lid) attrs.participant_pn = contact.pnJid;
    } else {
      attrs.from = sender;
      if (msg.lid) attrs.sender_pn = contact.pnJid;
    }
  }
  if (offline) attrs.offline = '1';
  const encAttrs: Record<string, string> = { v: '2', type };
  if (msg.mediaType) encAttrs.mediatype = msg.mediaType;
  return { tag: 'message', attrs, content: [{ tag: 'enc', attrs: encAttrs, content: ciphertext }] };
};
