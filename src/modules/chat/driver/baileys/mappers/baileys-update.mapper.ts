import { type BaileysEventMap, proto } from '@whiskeysockets/baileys';
import { isMediaKind } from '../../../../inbox/message-kinds.js';
import type { ScanEdit, ScanReaction, ScanReceipt, ScanReceiptStatus, ScanRevoke } from '../../scan-driver.port.js';
import type { ContentClass, MessageUpdate } from './baileys-content.types.js';

const { MESSAGE_EDIT, REVOKE } = proto.Message.ProtocolMessage.Type;

/**
 * The update a message's (unwrapped) content makes to an earlier message, or null when it makes
 * none. `classify` is the classifier itself, for an edit's new content (handed in: the classifier
 * asks this file first).
 *
 * - An edit: a `protocolMessage` of type MESSAGE_EDIT (possibly inside an `editedMessage`
 *   wrapper) names the edited message and carries its new content, whose text or caption
 *   replaces the stored one; new content the inbox keeps no text of (a place, a poll) is no edit.
 * - A revoke: a `protocolMessage` of type REVOKE names the message its sender deleted for everyone.
 * - A reaction: a `reactionMessage` names the message reacted to; its text is the emoji ('' takes
 *   the reaction back). Baileys also raises `messages.reaction` for it: the driver reads only
 *   the upsert, so each reaction is handed over once.
 * Any of them without the id of its target is protocol traffic: it acts on nothing.
 */
export function updateOf(content: proto.IMessage, classify: (message: proto.IMessage | null | undefined) => ContentClass): MessageUpdate | null {
  const protocol = content.protocolMessage;
  if (protocol?.type === MESSAGE_EDIT && protocol.key?.id && protocol.editedMessage) {
    const edited = classify(protocol.editedMessage);
    if (edited.class !== 'message' || !(edited.body.type === 'text' || isMediaKind(edited.body.type))) return null;
    return { type: 'edit', externalId: protocol.key.id, content: edited.body.content };
  }
  if (protocol?.type === REVOKE && protocol.key?.id) return { type: 'revoke', externalId: protocol.key.id };
  const reaction = content.reactionMessage;
  if (reaction?.key?.id) return { type: 'reaction', externalId: reaction.key.id, emoji: reaction.text ?? '' };
  return null;
}

/**
 * Where an update was sent and who sent it (the mappers' `chatOf` and `senderOf`, as for a
 * message): the reacting, deleting or editing person. An update is sent in its target's chat.
 */
export interface UpdateSender {
  chatJid: string;
  chatJidAlt: string | null;
  senderJid: string;
  senderJidAlt: string | null;
  fromMe: boolean;
}

export const scanEdit = (sender: UpdateSender, edit: Extract<MessageUpdate, { type: 'edit' }>): ScanEdit => ({
  chatJid: sender.chatJid,
  chatJidAlt: sender.chatJidAlt,
  externalId: edit.externalId,
  content: edit.content,
  senderJid: sender.senderJid,
  senderJidAlt: sender.senderJidAlt,
  fromMe: sender.fromMe,
});

export const scanReaction = (sender: UpdateSender, reaction: Extract<MessageUpdate, { type: 'reaction' }>): ScanReaction => ({
  chatJid: sender.chatJid,
  chatJidAlt: sender.chatJidAlt,
  externalId: reaction.externalId,
  senderJid: sender.senderJid,
  fromMe: sender.fromMe,
  emoji: reaction.emoji,
});

export const scanRevoke = (sender: UpdateSender, revoke: Extract<MessageUpdate, { type: 'revoke' }>): ScanRevoke => ({
  chatJid: sender.chatJid,
  chatJidAlt: sender.chatJidAlt,
  externalId: revoke.externalId,
  senderJid: sender.senderJid,
  fromMe: sender.fromMe,
});

const Status = proto.WebMessageInfo.Status;

export function receiptStatus(status: number | null | undefined): ScanReceiptStatus | null {
  switch (status) {
    case Status.SERVER_ACK:
      return 'sent';
    case Status.DELIVERY_ACK:
      return 'delivered';
    case Status.READ:
      return 'read';
    case Status.PLAYED:
      return 'played';
    default:
      return null;
  }
}

function userReceiptStatus(receipt: proto.IUserReceipt): ScanReceiptStatus | null {
  if (receipt.playedTimestamp) return 'played';
  if (receipt.readTimestamp) return 'read';
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
