import { type BaileysEventMap, proto } from '@whiskeysockets/baileys';
import type { ScanEdit, ScanReceipt, ScanReceiptStatus } from '../../scan-driver.port.js';
import type { ContentClass, MessageUpdate } from './baileys-content.types.js';

const { MESSAGE_EDIT } = proto.Message.ProtocolMessage.Type;

/**
 * The update a message's (unwrapped) content makes to an earlier message, or null when it makes
 * none. `classify` is the classifier itself, for an edit's new content (handed in: the classifier
 * asks this file first).
 *
 * - An edit: a `protocolMessage` of type MESSAGE_EDIT (possibly inside an `editedMessage`
 *   wrapper) names the edited message and carries its new content, whose text or caption
 *   replaces the stored one; new content the inbox keeps no text of is no edit.
 * - Next: a revoke (`protocolMessage` REVOKE) and a reaction (`reactionMessage`) become updates
 *   here; until then they classify as protocol traffic.
 */
export function updateOf(content: proto.IMessage, classify: (message: proto.IMessage | null | undefined) => ContentClass): MessageUpdate | null {
  const protocol = content.protocolMessage;
  if (protocol?.type === MESSAGE_EDIT && protocol.key?.id && protocol.editedMessage) {
    const edited = classify(protocol.editedMessage);
    if (edited.class !== 'message' || edited.body.type === 'other') return null;
    return { type: 'edit', externalId: protocol.key.id, content: edited.body.content };
  }
  return null;
}

/** An edit as the port hands it over: the chat is the edit's own (an edit is sent in the edited message's chat). */
export const scanEdit = (chatJid: string, edit: Extract<MessageUpdate, { type: 'edit' }>): ScanEdit => ({
  chatJid,
  externalId: edit.externalId,
  content: edit.content,
});

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

/** The Baileys events receipts are read from. */
export type ReceiptEvents = Pick<Partial<BaileysEventMap>, 'messages.update' | 'message-receipt.update' | 'messages.upsert'>;

/**
 * Status moves of messages this number sent. Baileys reports them as `messages.update` (1:1),
 * `message-receipt.update` (per group participant), or, when its event buffer held the own
 * message, folded into that message's upsert (`status`, `userReceipt`): all three are read.
 * They are a property of the message's envelope, not of its content: an own message of any
 * class may carry one.
 */
export function mapReceipts(events: ReceiptEvents): ScanReceipt[] {
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
