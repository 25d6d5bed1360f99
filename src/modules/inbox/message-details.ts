/**
 * What a message holds beyond its text and file: the parts of the structured kinds (a place,
 * contact cards, a poll) and the jids a group message mentions. Stored in the message row's
 * `details` (jsonb), shown in the API as `location`, `contacts`, `poll` and `mentions`; the
 * contract's `content` of these kinds is their readable rendering (`renderDetails`), so a client
 * that knows only `message_type` and `content` still reads what arrived.
 *
 * Channels build these from their own shapes (Baileys protos, Graph API objects) and hand them to
 * the inbox with the message; sends take the same shapes.
 */

export interface LocationDetails {
  latitude: number;
  longitude: number;
  /** The place's name, or ''. */
  name: string;
  address: string;
  /** A link the sender attached (a place's page), or ''. */
  url: string;
}

export interface ContactCard {
  /** The card's display name. */
  name: string;
  /** The card's phone numbers, digits only. */
  phones: string[];
  /** The vCard as sent ('' when the channel gave only fields). */
  vcard: string;
}

export interface PollDetails {
  question: string;
  options: string[];
  /** More than one option may be chosen. */
  multiple: boolean;
}

/**
 * The answer a person tapped: a reply button or list row of an interactive message, or a
 * template's quick-reply button (Cloud API). The message is a text whose `content` is the title;
 * the id is what the business gave the button (a quick reply's payload).
 */
export interface ReplyChoice {
  id: string;
  title: string;
}

/** A row's `details`: each part present only when the message has it. */
export interface MessageDetails {
  location?: LocationDetails;
  contacts?: ContactCard[];
  poll?: PollDetails;
  mentions?: string[];
  reply?: ReplyChoice;
}

/** One person's reaction to a message: the latest emoji of each sender is kept. */
export interface MessageReaction {
  emoji: string;
  sender_jid: string;
}

const coordinate = (value: number): string => (Number.isFinite(value) ? String(Math.round(value * 1e6) / 1e6) : '0');

/** `Name, address (lat, lng)`, and the link when there is one. */
export function renderLocation(location: LocationDetails): string {
  const place = [location.name, location.address].filter((part) => part.trim() !== '').join(', ');
  const where = `(${coordinate(location.latitude)}, ${coordinate(location.longitude)})`;
  return [place ? `${place} ${where}` : `Location ${where}`, location.url].filter(Boolean).join('\n');
}

/** One line per card: `Name: +4915…, +4930…`. */
export const renderContacts = (cards: readonly ContactCard[]): string =>
  cards.map((card) => [card.name || 'Contact', card.phones.map((phone) => `+${phone}`).join(', ')].filter(Boolean).join(': ')).join('\n');

/** The question, then one line per option. */
export const renderPoll = (poll: PollDetails): string =>
  [`Poll: ${poll.question}${poll.multiple ? ' (several answers allowed)' : ''}`, ...poll.options.map((option) => `- ${option}`)].join('\n');

/** The readable `content` of a structured message, or null when `details` holds no structured part. */
export function renderDetails(details: MessageDetails | null | undefined): string | null {
  if (details?.location) return renderLocation(details.location);
  if (details?.contacts?.length) return renderContacts(details.contacts);
  if (details?.poll) return renderPoll(details.poll);
  return null;
}

/** The `content` of an `unsupported` message: its short description in brackets, as the previews write placeholders. */
export const unsupportedContent = (description: string): string => `[${description}]`;

/** Digits of the phone numbers of a vCard's TEL lines (`waid=` preferred, as WhatsApp writes it). */
export function vcardPhones(vcard: string): string[] {
  const phones: string[] = [];
  for (const line of vcard.split(/\r?\n/)) {
    if (!/^(item\d+\.)?TEL/i.test(line)) continue;
    const waid = /waid=(\d+)/i.exec(line)?.[1];
    const digits = waid ?? line.slice(line.lastIndexOf(':') + 1).replace(/\D/g, '');
    if (digits && !phones.includes(digits)) phones.push(digits);
  }
  return phones;
}

/** A vCard's display name (FN), or ''. */
export const vcardName = (vcard: string): string => /^FN[^:]*:(.*)$/im.exec(vcard)?.[1]?.trim() ?? '';

/** A minimal vCard 3.0 of a name and phone numbers, in the form WhatsApp's clients write. */
export function buildVcard(name: string, phones: readonly string[]): string {
  const escaped = name.replace(/[\\;,]/g, (char) => `\\${char}`);
  const tels = phones.map((phone) => `TEL;type=CELL;type=VOICE;waid=${phone}:+${phone}`);
  return ['BEGIN:VCARD', 'VERSION:3.0', `N:;${escaped};;;`, `FN:${escaped}`, ...tels, 'END:VCARD'].join('\n');
}

/** `details` as stored: null when it holds nothing, so rows without any stay small. */
export function storedDetails(details: MessageDetails | null | undefined): MessageDetails | null {
  if (!details) return null;
  const kept: MessageDetails = {};
  if (details.location) kept.location = details.location;
  if (details.contacts?.length) kept.contacts = details.contacts;
  if (details.poll) kept.poll = details.poll;
  if (details.mentions?.length) kept.mentions = details.mentions;
  if (details.reply) kept.reply = details.reply;
  return Object.keys(kept).length ? kept : null;
}
