import { ChannelError, type ChannelConversation, type OutgoingMessage, type OutgoingTemplate } from '../../channels/channel-gateway.port.js';
import { assertNever, MESSAGE_KINDS } from '../../inbox/message-kinds.js';
import type { GraphOutgoing } from '../graph/graph-api.js';
import { isNamedParameter } from '../templates/meta-template.mapper.js';

export const NO_RECIPIENT = 'this conversation has no phone number or business-scoped user id to send to';

/** `to` (a phone number) when the chat has one, else `recipient` (the business-scoped user id). */
export function recipientOf(conversation: ChannelConversation): GraphOutgoing {
  if (conversation.chatPhone) return { recipient_type: 'individual', to: conversation.chatPhone };
  const [user, server] = conversation.chatJid.split('@');
  if (server === 'bsuid' && user) return { recipient_type: 'individual', recipient: user };
  if (server === 's.whatsapp.net' && /^\d{6,15}$/.test(user ?? '')) return { recipient_type: 'individual', to: user };
  throw new ChannelError(NO_RECIPIENT);
}

/** A media reference the provider accepts: a public `link` it fetches, or the `id` of an upload. */
export type MediaRef = { link: string } | { id: string };

/** The message part of a send (`type` and its object), given the media reference of image and document sends. */
export function messagePart(outgoing: OutgoingMessage, media?: MediaRef): GraphOutgoing {
  switch (outgoing.type) {
    case 'text':
      return { type: 'text', text: { body: outgoing.body, preview_url: false } };
    case 'image':
      return { type: 'image', image: { ...media, ...(outgoing.caption ? { caption: outgoing.caption } : {}) } };
    case 'document':
      return {
        type: 'document',
        document: {
          ...media,
          filename: outgoing.media.fileName || MESSAGE_KINDS.document.media.fileName.fallback,
          ...(outgoing.caption ? { caption: outgoing.caption } : {}),
        },
      };
    default:
      return assertNever(outgoing, 'outgoing message');
  }
}

/**
 * A template message: by name and language, with the body's parameters in order; a named
 * parameter (`{{first_name}}`, a `NAMED` template) also carries its `parameter_name`.
 */
export function templatePart(template: Omit<OutgoingTemplate, 'body' | 'messageId'>): GraphOutgoing {
  const parameters = template.parameters.map(({ key, text }) => ({ type: 'text', ...(isNamedParameter(key) ? { parameter_name: key } : {}), text }));
  return {
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(parameters.length ? { components: [{ type: 'body', parameters }] } : {}),
    },
  };
}
