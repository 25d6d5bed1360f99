import {
  ChannelError,
  type ChannelConversation,
  type MessageTarget,
  type OutgoingContent,
  type OutgoingInteractive,
  type OutgoingMessage,
  type OutgoingTemplate,
} from '../../channels/channel-gateway.port.js';
import type { ContactCard } from '../../inbox/message-details.js';
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

const withText = (key: string, value: string): Record<string, string> => (value ? { [key]: value } : {});

/**
 * The message part of a send (`type` and its object), given the media reference of a file, with
 * `context` naming the message it replies to. A voice note is an `audio` with `voice: true`
 * (the inbox only takes OGG/Opus for one, as the provider requires); audio and stickers carry no
 * caption.
 */
export function messagePart(outgoing: OutgoingMessage, media?: MediaRef): GraphOutgoing {
  return { ...contentPart(outgoing, media), ...(outgoing.replyTo ? contextOf(outgoing.replyTo) : {}) };
}

/** `context.message_id`: the provider shows the quoted message above the reply. */
export const contextOf = (target: MessageTarget): GraphOutgoing => ({ context: { message_id: target.externalId } });

function contentPart(outgoing: OutgoingContent, media?: MediaRef): GraphOutgoing {
  switch (outgoing.type) {
    case 'text':
      return { type: 'text', text: { body: outgoing.body, preview_url: false } };
    case 'image':
    case 'video':
      return { type: outgoing.type, [outgoing.type]: { ...media, ...withText('caption', outgoing.caption) } };
    case 'document':
      return {
        type: 'document',
        document: { ...media, filename: outgoing.media.fileName || MESSAGE_KINDS.document.media.fileName.fallback, ...withText('caption', outgoing.caption) },
      };
    case 'audio':
      return { type: 'audio', audio: { ...media } };
    case 'voice':
      return { type: 'audio', audio: { ...media, voice: true } };
    case 'sticker':
      return { type: 'sticker', sticker: { ...media } };
    case 'location': {
      const { latitude, longitude, name, address } = outgoing.location;
      return { type: 'location', location: { latitude, longitude, ...withText('name', name), ...withText('address', address) } };
    }
    case 'contacts':
      return { type: 'contacts', contacts: outgoing.contacts.map(contactObject) };
    case 'interactive':
      return { type: 'interactive', interactive: interactiveObject(outgoing.interactive) };
    default:
      return assertNever(outgoing, 'outgoing message');
  }
}

/**
 * A contact card as the provider's contact object. It wants `formatted_name` and at least one
 * other name part: the whole name is the first name (a card holds only its display name).
 */
function contactObject(card: ContactCard): Record<string, unknown> {
  const name = card.name || (card.phones[0] ? `+${card.phones[0]}` : 'Contact');
  return {
    name: { formatted_name: name, first_name: name },
    phones: card.phones.map((digits) => ({ phone: `+${digits}`, wa_id: digits, type: 'CELL' })),
  };
}

function interactiveObject(interactive: OutgoingInteractive): Record<string, unknown> {
  const frame = {
    ...(interactive.header ? { header: { type: 'text', text: interactive.header } } : {}),
    body: { text: interactive.body },
    ...(interactive.footer ? { footer: { text: interactive.footer } } : {}),
  };
  if (interactive.kind === 'buttons') {
    return { type: 'button', ...frame, action: { buttons: interactive.buttons.map((reply) => ({ type: 'reply', reply })) } };
  }
  const sections = interactive.sections.map((section) => ({
    ...withText('title', section.title),
    rows: section.rows.map((row) => ({ id: row.id, title: row.title, ...withText('description', row.description) })),
  }));
  return { type: 'list', ...frame, action: { button: interactive.button, sections } };
}

/** A reaction to a message of the chat; an empty emoji takes this number's reaction back. */
export const reactionPart = (target: MessageTarget, emoji: string): GraphOutgoing => ({
  type: 'reaction',
  reaction: { message_id: target.externalId, emoji },
});

/** The parameter of a button by its kind: a URL button's suffix (`text`), a quick reply's `payload`, a copy-code button's code. */
function buttonParameter(subType: 'url' | 'quick_reply' | 'copy_code', value: string): Record<string, string> {
  if (subType === 'url') return { type: 'text', text: value };
  if (subType === 'quick_reply') return { type: 'payload', payload: value };
  return { type: 'coupon_code', coupon_code: value };
}

/**
 * A template message: by name and language, with its header parameter (a text, or a file by the
 * given media reference), the body's parameters in order (a named parameter, `{{first_name}}`,
 * also carries its `parameter_name`) and the buttons' parameters by index.
 */
export function templatePart(template: Omit<OutgoingTemplate, 'body' | 'messageId'>, headerMedia?: MediaRef): GraphOutgoing {
  const components: Record<string, unknown>[] = [];
  const header = template.header;
  if (header?.type === 'text') components.push({ type: 'header', parameters: [{ type: 'text', text: header.text }] });
  else if (header) {
    const file = header.type === 'document' ? { ...headerMedia, ...withText('filename', header.media.fileName) } : { ...headerMedia };
    components.push({ type: 'header', parameters: [{ type: header.type, [header.type]: file }] });
  }
  const parameters = template.parameters.map(({ key, text }) => ({ type: 'text', ...(isNamedParameter(key) ? { parameter_name: key } : {}), text }));
  if (parameters.length) components.push({ type: 'body', parameters });
  for (const button of template.buttons ?? []) {
    components.push({ type: 'button', sub_type: button.subType, index: String(button.index), parameters: [buttonParameter(button.subType, button.parameter)] });
  }
  return {
    type: 'template',
    template: { name: template.name, language: { code: template.language }, ...(components.length ? { components } : {}) },
  };
}
