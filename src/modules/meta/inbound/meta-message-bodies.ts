import {
  type ContactCard,
  type LocationDetails,
  type MessageDetails,
  buildVcard,
  renderContacts,
  renderLocation,
  unsupportedContent,
} from '../../inbox/message-details.js';
import { type MediaKind, type MessageKind, mediaRuleOf } from '../../inbox/message-kinds.js';
import { isObject, type Json, objects, text } from '../callback/callback-payload.js';

/** What an inbound message says, as the inbox stores it. */
export interface MetaBody {
  type: MessageKind;
  content: string;
  /** The file of a media kind, by the provider's media id (fetched by the `meta-media` job). */
  media: { id: string; mimeType: string; fileName: string } | null;
  /** Playing time; the provider's webhooks do not carry one today, so it is 0 unless one is given. */
  durationS: number;
  details: MessageDetails | null;
}

/** A reaction: not a message, it changes the message it names. */
export interface MetaReactionBody {
  targetExternalId: string;
  /** '' takes the person's reaction back. */
  emoji: string;
}

/** A message of `value.messages[]` by what it is: a message to store, a reaction, or nothing (`system`, `request_welcome`, …). */
export type MetaContent = { body: MetaBody } | { reaction: MetaReactionBody } | null;

/** Shown for a message the provider gives no description of (its code 131051, "Message type unknown"). */
export const UNKNOWN_MESSAGE = 'a message this app cannot show';

// The provider's `unsupported.type` values that a person sent as a message, by what the agent
// is told; the others (poll votes, pins, keep-in-chat, edits, reactions) change other messages
// and are not messages, as on the scan channel.
const UNSUPPORTED_TYPES: Readonly<Record<string, string | null>> = {
  gif: 'a GIF',
  group_invite: 'a group invitation',
  hsm: 'a template message',
  image: 'an image',
  interactive: 'an interactive message',
  link_preview: 'a link preview',
  list: 'a list',
  location: 'a location',
  media_placeholder: 'a media file',
  order: 'an order',
  poll_creation: 'a poll',
  product: 'a product',
  video_note: 'a video note',
  view_once: 'a view-once message',
  poll_update: null,
  keep_in_chat: null,
  pin: null,
  edit: null,
  reaction: null,
  revoke: null,
};

// Message types that are not messages a person wrote: a number change, the "welcome" request of a
// first chat opened from a link. They still reach the workspace's `meta.chat` webhooks.
const NOT_MESSAGES = new Set(['system', 'request_welcome', 'ephemeral']);

const MEDIA_TYPES = new Set<string>(['image', 'document', 'video', 'audio', 'sticker']);
const CAPTIONED = new Set<MessageKind>(['image', 'video', 'document']);

const unsupported = (description: string): { body: MetaBody } => ({
  body: { type: 'unsupported', content: unsupportedContent(description), media: null, durationS: 0, details: null },
});

const plain = (type: MessageKind, content: string, details: MessageDetails | null = null): { body: MetaBody } => ({
  body: { type, content, media: null, durationS: 0, details },
});

/** What a message of `value.messages[]` is, by its `type` and that type's object. */
export function contentOf(message: Json): MetaContent {
  const type = text(message.type) ?? '';
  const part = isObject(message[type]) ? (message[type] as Json) : {};
  if (MEDIA_TYPES.has(type)) return mediaOf(type === 'audio' && part.voice === true ? 'voice' : (type as MediaKind), part);
  switch (type) {
    case 'text': {
      const body = text(part.body);
      return body ? plain('text', body) : null;
    }
    case 'location':
      return locationOf(part);
    case 'contacts':
      return contactsOf(message.contacts);
    case 'button':
      return replyOf(text(part.payload), text(part.text), 'a button reply');
    case 'interactive':
      return interactiveOf(part);
    case 'reaction': {
      const target = text(part.message_id);
      return target ? { reaction: { targetExternalId: target, emoji: typeof part.emoji === 'string' ? part.emoji : '' } } : null;
    }
    case 'order':
      return unsupported('an order');
    case 'unsupported':
    case 'unknown':
      return unsupportedOf(message);
    default:
      return NOT_MESSAGES.has(type) ? null : unsupportedOf(message);
  }
}

/** A file by its media id; one without an id (never seen, but the file could not be fetched) says what it was. */
function mediaOf(kind: MediaKind, part: Json): MetaContent {
  const rule = mediaRuleOf(kind);
  const id = text(part.id);
  if (!id) return unsupported(rule.noun);
  const fileName = rule.fileName ? (text(part.filename) ?? rule.fileName.fallback) : '';
  const caption = CAPTIONED.has(kind) ? (text(part.caption) ?? '') : '';
  const duration = Number(part.duration);
  return {
    body: {
      type: kind,
      content: caption,
      media: { id, mimeType: text(part.mime_type) ?? '', fileName },
      durationS: Number.isFinite(duration) && duration > 0 ? Math.round(duration) : 0,
      details: null,
    },
  };
}

/** The provider sends coordinates as JSON numbers (documented as floats; strings are read too). */
const coordinate = (value: unknown): number => (typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN);

function locationOf(part: Json): MetaContent {
  const latitude = coordinate(part.latitude);
  const longitude = coordinate(part.longitude);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return unsupported('a location');
  const location: LocationDetails = {
    latitude,
    longitude,
    name: text(part.name) ?? '',
    address: text(part.address) ?? '',
    url: text(part.url) ?? '',
  };
  return plain('location', renderLocation(location), { location });
}

/** The contact cards of a `contacts` message (the provider's objects: name, phones with `wa_id`), each with a vCard. */
function contactsOf(value: unknown): MetaContent {
  const cards = objects(value).map(cardOf);
  if (cards.length === 0) return unsupported('a contact card');
  return plain('contacts', renderContacts(cards), { contacts: cards });
}

function cardOf(contact: Json): ContactCard {
  const name = isObject(contact.name) ? contact.name : {};
  const formatted =
    text(name.formatted_name) ?? [name.prefix, name.first_name, name.middle_name, name.last_name, name.suffix].map(text).filter(Boolean).join(' ');
  const phones: string[] = [];
  for (const phone of objects(contact.phones)) {
    // `wa_id` is the number's WhatsApp account; a number that has none is kept as its digits.
    const digits = text(phone.wa_id)?.replace(/\D/g, '') || (text(phone.phone)?.replace(/\D/g, '') ?? '');
    if (digits && !phones.includes(digits)) phones.push(digits);
  }
  return { name: formatted, phones, vcard: buildVcard(formatted, phones) };
}

/** A tapped reply: stored as a text of its title, its id beside it (`details.reply`). */
function replyOf(id: string | undefined, title: string | undefined, what: string): MetaContent {
  const shown = title ?? id;
  if (!shown) return unsupported(what);
  return plain('text', shown, { reply: { id: id ?? shown, title: shown } });
}

function interactiveOf(part: Json): MetaContent {
  const kind = text(part.type);
  const reply = kind === 'button_reply' || kind === 'list_reply' ? part[kind] : undefined;
  if (isObject(reply)) return replyOf(text(reply.id), text(reply.title), 'an interactive reply');
  // A Flow's answer (`nfm_reply`) carries form data, not text for a person.
  if (kind === 'nfm_reply') return unsupported('a form response');
  return unsupported('an interactive reply');
}

/**
 * A message the provider does not pass on (`type: unsupported`): described by its
 * `unsupported.type` when it names one, else by its error (131060: not available yet), else as
 * a message this app cannot show. Poll votes, pins and the like are not messages.
 */
function unsupportedOf(message: Json): MetaContent {
  const named = isObject(message.unsupported) ? text(message.unsupported.type) : undefined;
  if (named && Object.hasOwn(UNSUPPORTED_TYPES, named)) {
    const description = UNSUPPORTED_TYPES[named];
    return description === null ? null : unsupported(description!);
  }
  const error = objects(message.errors)[0];
  if (error?.code === 131060) return unsupported('a message that is not available yet');
  if (!error || error.code === 131051) return unsupported(UNKNOWN_MESSAGE);
  const details = isObject(error.error_data) ? text(error.error_data.details) : undefined;
  const said = (text(error.title) ?? details ?? text(error.message))?.trim().replace(/\.+$/, '');
  return unsupported(said || UNKNOWN_MESSAGE);
}
