import type { proto } from '@whiskeysockets/baileys';
import type { MessageBody } from './baileys-content.types.js';
import { normalisedJid } from './baileys-jid.js';

/**
 * The context a message's content carries, on any content type that has one (a text, an image, a
 * voice note, a location, …): its `contextInfo` says which message it replies to (`stanzaId`, the
 * quoted message's id) and whom it mentions (`mentionedJid`).
 */
function contextInfoOf(content: proto.IMessage, contentType: string): proto.IContextInfo | null {
  const field = (content as Record<string, unknown>)[contentType];
  if (typeof field !== 'object' || field === null) return null;
  const info = (field as { contextInfo?: proto.IContextInfo | null }).contextInfo;
  return info ?? null;
}

/** The body with its reply and mentions, each only when the message has one. */
export function withContext(body: MessageBody, content: proto.IMessage, contentType: string): MessageBody {
  const info = contextInfoOf(content, contentType);
  if (!info) return body;
  const mentions = [...new Set((info.mentionedJid ?? []).map(normalisedJid).filter((jid): jid is string => jid !== null))];
  return {
    ...body,
    ...(info.stanzaId ? { quotedExternalId: info.stanzaId } : {}),
    ...(mentions.length ? { details: { ...body.details, mentions } } : {}),
  };
}
