import { peerTime } from '../../../infra/time/peer-time.js';
import { normalizeBsuid, normalizePhone } from '../../inbox/jid.js';
import { type MessageKind, mediaRuleOf } from '../../inbox/message-kinds.js';
import { isObject, type Json, objects, text } from '../callback/callback-payload.js';

/** Who wrote an inbound message: the phone (`wa_id`) when the provider shares it, the BSUID always (since 2026). */
export interface MetaSender {
  phone: string | null;
  bsuid: string | null;
  name: string;
}

/** An inbound message of a `messages` change, as the inbox will store it. */
export interface MetaInboundMessage {
  externalId: string;
  sender: MetaSender;
  type: MessageKind;
  content: string;
  media: { id: string; mimeType: string; fileName: string } | null;
  timestamp: Date;
}

/**
 * Maps `value.messages[]` with the matching `value.contacts[]` entry. Kinds the inbox has no
 * type for (audio, video, stickers, locations, reactions, …) are skipped (null), as on the scan
 * channel; they still reach the workspace's `meta.chat` webhooks. Replies to buttons and lists
 * become text: they answer templates and interactive messages.
 */
export function toMetaInbound(message: Json, contacts: Json[], received: Date): MetaInboundMessage | null {
  const externalId = text(message.id);
  if (!externalId) return null;
  const sender = senderOf(message, contacts);
  if (!sender) return null;
  const body = bodyOf(message);
  if (!body) return null;
  return { externalId, sender, ...body, timestamp: peerTime(message.timestamp, received) };
}

function senderOf(message: Json, contacts: Json[]): MetaSender | null {
  const from = text(message.from);
  const fromUserId = text(message.from_user_id);
  const contact =
    contacts.find((c) => (from && text(c.wa_id) === from) || (fromUserId && text(c.user_id) === fromUserId)) ??
    (contacts.length === 1 ? contacts[0] : undefined);
  const phone = normalizePhone(from) ?? normalizePhone(text(contact?.wa_id));
  const bsuid = normalizeBsuid(fromUserId) ?? normalizeBsuid(text(contact?.user_id)) ?? normalizeBsuid(from);
  if (!phone && !bsuid) return null;
  const profile = isObject(contact?.profile) ? contact.profile : {};
  return { phone, bsuid, name: text(profile.name) ?? text(profile.username) ?? '' };
}

type Body = Pick<MetaInboundMessage, 'type' | 'content' | 'media'>;

function bodyOf(message: Json): Body | null {
  const kind = text(message.type);
  const part = kind && isObject(message[kind]) ? (message[kind] as Json) : {};
  switch (kind) {
    case 'text':
      return textBody(text(part.body));
    case 'image':
    case 'document': {
      const id = text(part.id);
      if (!id) return null;
      const kept = mediaRuleOf(kind).fileName;
      const fileName = kept ? (text(part.filename) ?? kept.fallback) : '';
      return { type: kind, content: text(part.caption) ?? '', media: { id, mimeType: text(part.mime_type) ?? '', fileName } };
    }
    case 'button':
      return textBody(text(part.text) ?? text(part.payload));
    case 'interactive': {
      const reply = [part.button_reply, part.list_reply].find(isObject);
      return textBody(reply ? (text(reply.title) ?? text(reply.id)) : undefined);
    }
    default:
      return null;
  }
}

const textBody = (content: string | undefined): Body | null => (content ? { type: 'text', content, media: null } : null);

/** The inbound messages of a change, each with its contacts entry. */
export const messagesOf = (value: Json): { messages: Json[]; contacts: Json[] } => ({
  messages: objects(value.messages),
  contacts: objects(value.contacts),
});
