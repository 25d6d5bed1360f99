import { peerTime } from '../../../infra/time/peer-time.js';
import { normalizeBsuid, normalizePhone } from '../../inbox/jid.js';
import { isObject, type Json, objects, text } from '../callback/callback-payload.js';
import { contentOf, type MetaBody, type MetaReactionBody } from './meta-message-bodies.js';

/** Who wrote an inbound message: the phone (`wa_id`) when the provider shares it, the BSUID always (since 2026). */
export interface MetaSender {
  phone: string | null;
  bsuid: string | null;
  name: string;
}

/** An inbound message of a `messages` change, as the inbox will store it. */
export interface MetaInboundMessage extends MetaBody {
  externalId: string;
  sender: MetaSender;
  /** The provider's id of the message this one answers (`context.id`: a reply, or the message whose button was tapped). */
  quotedExternalId: string | null;
  timestamp: Date;
}

/** A person's reaction to a message of the chat (an empty emoji takes it back). */
export interface MetaInboundReaction extends MetaReactionBody {
  externalId: string;
  sender: MetaSender;
}

export type MetaInbound = { message: MetaInboundMessage } | { reaction: MetaInboundReaction };

/**
 * Maps `value.messages[]` with the matching `value.contacts[]` entry. Every kind a person sends
 * becomes a message (meta-message-bodies.ts): what the inbox has no kind for is `unsupported`
 * with a short description. A reaction is not a message but a change of its target. What is not
 * a person's message (`system`, `request_welcome`, poll votes) is null; it still reaches the
 * workspace's `meta.chat` webhooks.
 */
export function toMetaInbound(message: Json, contacts: Json[], received: Date): MetaInbound | null {
  const externalId = text(message.id);
  if (!externalId) return null;
  const sender = senderOf(message, contacts);
  if (!sender) return null;
  const content = contentOf(message);
  if (!content) return null;
  if ('reaction' in content) return { reaction: { externalId, sender, ...content.reaction } };
  const context = isObject(message.context) ? message.context : {};
  return {
    message: {
      externalId,
      sender,
      ...content.body,
      quotedExternalId: text(context.id) ?? null,
      timestamp: peerTime(message.timestamp, received),
    },
  };
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

/** The inbound messages of a change, each with its contacts entry. */
export const messagesOf = (value: Json): { messages: Json[]; contacts: Json[] } => ({
  messages: objects(value.messages),
  contacts: objects(value.contacts),
});
