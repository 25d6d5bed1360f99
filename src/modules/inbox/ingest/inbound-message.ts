import { isStorableTime } from '../../../infra/time/peer-time.js';
import { CHANNEL_NAMES, type ChannelName } from '../../channels/channel-gateway.port.js';
import type { MessageDirection, MessageStatus } from '../entities/message.entity.js';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from '../entities/message.entity.js';
import { type MessageDetails, storedDetails } from '../message-details.js';
import { isMessageKind, isTimedKind, type MessageKind } from '../message-kinds.js';
import { normalizeBsuid, normalizeLid, normalizePhone } from '../jid.js';

/**
 * A message as a channel hands it to the inbox, whatever the channel. Channels map their own
 * events (Baileys `messages.upsert`, Cloud API webhooks) to this shape and call
 * `InboxIngestService.ingest` (live) or `ingestBatch` (history).
 */
export interface InboundMessage {
  channel: ChannelName;
  /** The channel's message id; a repeat of the same id is a no-op. */
  externalId: string;
  /** `…@s.whatsapp.net` / `…@lid` for a person, `…@g.us` for a group. */
  chatJid: string;
  /** Defaults to whether `chatJid` ends with `@g.us`. */
  isGroup?: boolean;
  /** Group subject or contact name, when the channel knows it. */
  chatName?: string | null;
  /** `outbound` for messages sent from the phone itself (history, or echoes). Default `inbound`. */
  direction?: MessageDirection;
  senderJid?: string | null;
  senderName?: string | null;
  /**
   * The other person of a one-to-one chat (ignored for groups). Any id may be missing; `bsuid` is
   * the Cloud API's business-scoped user id.
   */
  contact?: { phone?: string | null; lid?: string | null; bsuid?: string | null; name?: string | null } | null;
  type?: MessageKind;
  /** Text, or the caption of an image or document. */
  content?: string | null;
  media?: { url?: string | null; mimeType?: string | null; fileName?: string | null; fileSize?: number | null } | null;
  /** Playing time in seconds (audio, voice, video); ignored for other kinds. */
  durationS?: number | null;
  /** The channel id of the message this one quotes (a reply). */
  quotedExternalId?: string | null;
  /** Location, contact cards, poll, mentions (message-details.ts). */
  details?: MessageDetails | null;
  /** Default: `delivered` for inbound, `sent` for outbound. */
  status?: MessageStatus;
  timestamp: Date;
}

/** The chat a message belongs to, with the contact it should be linked to (none for groups). */
export interface ChatIdentity {
  channel: ChannelName;
  chatJid: string;
  isGroup: boolean;
  chatName: string;
  chatPhone: string;
  contact: { phone: string | null; lid: string | null; bsuid?: string | null; name: string } | null;
}

/** Every field filled in: what the SQL of both ingest paths binds. */
export interface NormalizedInbound {
  chat: ChatIdentity;
  externalId: string;
  direction: MessageDirection;
  senderJid: string;
  senderName: string;
  type: MessageKind;
  content: string;
  mediaUrl: string;
  mimeType: string;
  fileName: string;
  fileSize: number;
  durationS: number;
  quotedExternalId: string;
  details: MessageDetails | null;
  status: MessageStatus;
  timestamp: Date;
}

// A lone surrogate (ill-formed UTF-16) becomes U+FFFD, as Postgres stores it (node-postgres and
// jsonRows write it so): the message the caller gets, and the group's repeat check, see the
// stored text, so two ids that differ only there are one message everywhere.
const wellFormed = (value: string): string => (value.isWellFormed() ? value : value.toWellFormed());
const text = (value: string | null | undefined): string => (typeof value === 'string' ? wellFormed(value) : '');

function allWellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(allWellFormed);
  if (value !== null && typeof value === 'object') return Object.values(value).every(allWellFormed);
  return true;
}

const toWellFormedDeep = (value: unknown): unknown => {
  if (typeof value === 'string') return wellFormed(value);
  if (Array.isArray(value)) return value.map(toWellFormedDeep);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toWellFormedDeep(inner)]));
  return value;
};

/**
 * `value` (JSON-like) with every string inside well-formed. A text column stores a lone
 * surrogate as U+FFFD, but jsonb refuses the whole document (`\ud800` is no character), which
 * would lose the message, or fail a group's whole statement. Checked first: the common value
 * comes back as it is, uncopied.
 */
export function wellFormedStrings<T>(value: T): T {
  return allWellFormed(value) ? value : (toWellFormedDeep(value) as T);
}

const NUL = '\u0000';
const strip = <T extends string | null | undefined>(value: T): T =>
  typeof value === 'string' && value.includes(NUL) ? (value.replaceAll(NUL, '') as T) : value;

/**
 * The message with every NUL character (U+0000) removed from its texts. Postgres cannot store
 * one in text, so the whole message would be refused, and a channel that has acknowledged it
 * (WhatsApp does as soon as the socket receives it) never delivers it again: a sender's odd
 * name or text would lose the message. Channels pass what they receive through this; the ingest
 * pipeline itself refuses such text, as any other value Postgres refuses.
 */
export function withoutNul(input: InboundMessage): InboundMessage {
  const texts = [
    input.externalId,
    input.chatJid,
    input.chatName,
    input.senderJid,
    input.senderName,
    input.content,
    input.contact?.name,
    input.media?.fileName,
    input.media?.mimeType,
    input.quotedExternalId,
  ];
  const details = input.details ? JSON.stringify(input.details) : '';
  if (!texts.some((value) => typeof value === 'string' && value.includes(NUL)) && !details.includes('\\u0000')) return input;
  return {
    ...input,
    externalId: strip(input.externalId),
    chatJid: strip(input.chatJid),
    chatName: strip(input.chatName),
    senderJid: strip(input.senderJid),
    senderName: strip(input.senderName),
    content: strip(input.content),
    contact: input.contact ? { ...input.contact, name: strip(input.contact.name) } : input.contact,
    media: input.media ? { ...input.media, fileName: strip(input.media.fileName), mimeType: strip(input.media.mimeType) } : input.media,
    quotedExternalId: strip(input.quotedExternalId),
    // Every string inside (jsonb refuses a NUL as text does).
    details: input.details
      ? (JSON.parse(details, (_key, value: unknown) => (typeof value === 'string' ? strip(value) : value)) as MessageDetails)
      : input.details,
  };
}

/** Validates and completes an inbound message. A bad one is a bug in the channel: it throws. */
export function normalizeInbound(input: InboundMessage): NormalizedInbound {
  if (!CHANNEL_NAMES.includes(input.channel)) throw new Error(`inbound message: unknown channel ${String(input.channel)}`);
  if (!input.externalId) throw new Error('inbound message: externalId is required');
  if (!input.chatJid) throw new Error('inbound message: chatJid is required');
  if (!(input.timestamp instanceof Date) || Number.isNaN(input.timestamp.getTime())) {
    throw new Error('inbound message: timestamp must be a valid Date');
  }
  // The channels clamp peer times (peerTime); a later year would fail a whole group's statement.
  if (!isStorableTime(input.timestamp)) throw new Error('inbound message: timestamp must fall in the years 0001 to 9999');
  const direction = input.direction ?? 'inbound';
  const type = input.type ?? 'text';
  if (!MESSAGE_DIRECTIONS.includes(direction)) throw new Error(`inbound message: bad direction ${direction}`);
  if (!isMessageKind(type)) throw new Error(`inbound message: bad type ${String(type)}`);
  if (input.status && !MESSAGE_STATUSES.includes(input.status)) throw new Error(`inbound message: bad status ${input.status}`);

  const isGroup = input.isGroup ?? input.chatJid.endsWith('@g.us');
  const senderName = text(input.senderName);
  let contact: ChatIdentity['contact'] = null;
  if (!isGroup) {
    const [user, server] = input.chatJid.split('@');
    const phone = normalizePhone(input.contact?.phone) ?? (server === 's.whatsapp.net' ? normalizePhone(user) : null);
    const lid = normalizeLid(input.contact?.lid) ?? (server === 'lid' ? normalizeLid(input.chatJid) : null);
    // The sender's own push name is the contact's name only when the contact is the sender.
    const name = text(input.contact?.name) || text(input.chatName) || (direction === 'inbound' ? senderName : '');
    const bsuid = normalizeBsuid(input.contact?.bsuid);
    if (phone || lid || bsuid) contact = { phone, lid, bsuid, name };
  }
  return {
    chat: {
      channel: input.channel,
      chatJid: wellFormed(input.chatJid),
      isGroup,
      chatName: text(input.chatName) || (contact?.name ?? ''),
      chatPhone: contact?.phone ?? '',
      contact,
    },
    externalId: wellFormed(input.externalId),
    direction,
    senderJid: text(input.senderJid),
    senderName,
    type,
    content: text(input.content),
    mediaUrl: text(input.media?.url),
    mimeType: text(input.media?.mimeType),
    fileName: text(input.media?.fileName),
    fileSize: Math.max(0, Math.trunc(input.media?.fileSize ?? 0)),
    // An integer column: a peer's absurd duration is clamped, not a failed statement.
    durationS: isTimedKind(type) ? Math.min(2_147_483_647, Math.max(0, Math.round(Number(input.durationS) || 0))) : 0,
    quotedExternalId: text(input.quotedExternalId),
    details: wellFormedStrings(storedDetails(input.details)),
    status: input.status ?? (direction === 'inbound' ? 'delivered' : 'sent'),
    timestamp: input.timestamp,
  };
}
