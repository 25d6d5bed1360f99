import type { proto } from '@whiskeysockets/baileys';
import { unsupportedContent } from '../../../../inbox/message-details.js';
import type { MessageBody } from './baileys-content.types.js';

/** What the agent reads of a message whose content type has no entry below. */
export const UNKNOWN_CONTENT = 'a message this app cannot show';

/**
 * What a person sent that the inbox has no kind for, in a few words: stored as an `unsupported`
 * message reading `[a call]`, so the agent sees that something arrived and can look on the phone.
 * Keyed by Baileys' content type (the classifier names `call` and `callLogMesssage` itself:
 * Baileys' `getContentType` does not).
 */
const DESCRIPTIONS: Readonly<Partial<Record<keyof proto.IMessage, string>>> = {
  call: 'a call',
  callLogMesssage: 'a call', // sic: the field's name in WhatsApp's proto
  bcallMessage: 'a call',
  scheduledCallCreationMessage: 'a scheduled call',
  orderMessage: 'an order',
  eventMessage: 'an event',
  productMessage: 'a product',
  sendPaymentMessage: 'a payment',
  requestPaymentMessage: 'a payment request',
  declinePaymentRequestMessage: 'a declined payment request',
  cancelPaymentRequestMessage: 'a cancelled payment request',
  paymentInviteMessage: 'a payment invite',
  invoiceMessage: 'an invoice',
  groupInviteMessage: 'a group invite',
  newsletterAdminInviteMessage: 'a channel invite',
  newsletterFollowerInviteMessageV2: 'a channel invite',
  listMessage: 'a list',
  buttonsMessage: 'buttons',
  interactiveMessage: 'buttons',
  templateMessage: 'a template message',
  highlyStructuredMessage: 'a template message',
  stickerPackMessage: 'a sticker pack',
  pollResultSnapshotMessage: 'poll results',
  pollResultSnapshotMessageV3: 'poll results',
  requestPhoneNumberMessage: 'a request for your phone number',
  statusMentionMessage: 'a status mention',
  groupStatusMentionMessage: 'a status mention',
  commentMessage: 'a comment',
  encCommentMessage: 'a comment',
  questionMessage: 'a question',
  questionReplyMessage: 'an answer to a question',
  questionResponseMessage: 'an answer to a question',
  // What WhatsApp shows only on the phone (a view-once message, since linked devices get none).
  placeholderMessage: 'a message shown only on the phone',
};

/** The description of a content type, or the general one. */
export const describeContent = (contentType: string): string => DESCRIPTIONS[contentType as keyof proto.IMessage] ?? UNKNOWN_CONTENT;

/** An `unsupported` message for this content type. */
export const unsupportedBody = (contentType: string): MessageBody => ({
  type: 'unsupported',
  content: unsupportedContent(describeContent(contentType)),
  media: null,
});
