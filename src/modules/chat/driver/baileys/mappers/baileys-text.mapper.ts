import type { proto } from '@whiskeysockets/baileys';
import type { BodyMappers, MessageBody } from './baileys-content.types.js';

const text = (content: string): MessageBody => ({ type: 'text', content, media: null });

/** A plain text message (`conversation`). */
export const conversationBody = (message: proto.IMessage): MessageBody => text(message.conversation ?? '');

/** A text with a link preview, a quote or mentions (`extendedTextMessage`): its text alone. */
export const extendedTextBody = (message: proto.IMessage): MessageBody => text(message.extendedTextMessage?.text ?? '');

/** The text family: what a person typed. */
export const TEXT_CONTENT: BodyMappers = {
  conversation: conversationBody,
  extendedTextMessage: extendedTextBody,
};
