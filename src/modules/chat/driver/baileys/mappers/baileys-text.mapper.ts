import type { proto } from '@whiskeysockets/baileys';
import type { BodyMappers, MessageBody } from './baileys-content.types.js';

const text = (content: string): MessageBody => ({ type: 'text', content, media: null });

/** A plain text message (`conversation`). */
export const conversationBody = (message: proto.IMessage): MessageBody => text(message.conversation ?? '');

/** A text with a link preview, a quote or mentions (`extendedTextMessage`): its text (the quote and mentions are its context). */
export const extendedTextBody = (message: proto.IMessage): MessageBody => text(message.extendedTextMessage?.text ?? '');

/**
 * The answer a person tapped (a reply button, a list row, a template's quick reply, a native-flow
 * button): a text of the choice's title, with the id the business gave the choice, as the Cloud
 * API's button replies are stored.
 */
const choice = (id: string | null | undefined, title: string | null | undefined): MessageBody => ({
  ...text(title ?? ''),
  details: { reply: { id: id ?? '', title: title ?? '' } },
});

/** A native-flow reply names its choice inside `paramsJson` (`{"id": …}`), when it names one. */
function nativeFlowId(paramsJson: string | null | undefined): string {
  try {
    const params: unknown = JSON.parse(paramsJson ?? '');
    const id = typeof params === 'object' && params !== null ? (params as { id?: unknown }).id : undefined;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

/** The text family: what a person typed, and the choices they tapped. */
export const TEXT_CONTENT: BodyMappers = {
  conversation: conversationBody,
  extendedTextMessage: extendedTextBody,
  buttonsResponseMessage: ({ buttonsResponseMessage: reply }) => choice(reply?.selectedButtonId, reply?.selectedDisplayText),
  templateButtonReplyMessage: ({ templateButtonReplyMessage: reply }) => choice(reply?.selectedId, reply?.selectedDisplayText),
  listResponseMessage: ({ listResponseMessage: reply }) => choice(reply?.singleSelectReply?.selectedRowId, reply?.title),
  interactiveResponseMessage: ({ interactiveResponseMessage: reply }) => choice(nativeFlowId(reply?.nativeFlowResponseMessage?.paramsJson), reply?.body?.text),
};
