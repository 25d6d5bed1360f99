import { NON_BLANK, type SchemaRules } from '../../../infra/http/schema-rules.js';
import { type MediaKind, mediaRuleOf } from '../message-kinds.js';
import { INTERACTIVE_SEND_RULES } from './interactive.dto.js';
import type { SendType } from './message.dto.js';

/**
 * The rules of a send that no single field states, as the request schema gives them; the
 * service checks them (`buildDraft`, `messageText` and `parseTemplateRequest` in
 * messages/outgoing-draft.ts, the files' in media-draft.ts, locations and cards in
 * structured-draft.ts, reactions in reaction-request.ts). Keep the two side by side when either
 * changes.
 */

/** `body` and `content` are one text: at most one of the two (equal texts aside), not blank. */
export const ONE_TEXT: SchemaRules = {
  not: { required: ['body', 'content'] },
  properties: { body: { type: 'string', pattern: NON_BLANK }, content: { type: 'string', pattern: NON_BLANK } },
};

const typed = (type: SendType, rules: SchemaRules): SchemaRules => ({ ...rules, properties: { type: { type: 'string', enum: [type] }, ...rules.properties } });

/** A voice note's and a sticker's formats, as the 400 of a wrong file says them. */
export const VOICE_FORMAT = 'a voice note must be audio/ogg with the Opus codec';
export const STICKER_FORMAT = 'a sticker must be a WebP image (image/webp)';
/** What a reaction's `emoji` may be. */
export const EMOJI_RULE = 'one emoji (a skin tone, a flag or a ZWJ sequence counts as one), or "" to take the reaction back';
/** The mime types a voice note may name: Ogg (or Opus) with no codec but Opus. */
export const VOICE_MIME_PATTERN = '^(?:[Aa][Uu][Dd][Ii][Oo]/(?:[Oo][Gg][Gg]|[Oo][Pp][Uu][Ss]))(?:\\s*;\\s*[Cc][Oo][Dd][Ee][Cc][Ss]="?[Oo][Pp][Uu][Ss]"?)?\\s*$';

/** The 400 of an interactive send to a conversation of a channel without them (the scan channel). */
export const INTERACTIVE_NEEDS_CLOUD = 'interactive messages need a Cloud API number';

/** A size limit as people read it: `16 MB`, `500 KB`. */
export const sizeText = (bytes: number): string => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`);

/**
 * What a Cloud API number takes per file kind, stricter than the kind's own limit for some (the
 * provider's "supported media types"; the meta channel refuses the rest with 400 before anything
 * is stored: src/modules/meta/sending/meta-media-limits.ts, which test/meta/send-limits.spec.ts
 * holds these to). The type is checked when the send names one, the size on uploaded bytes (a
 * `media.url` is fetched by the provider, which answers for it).
 */
export const CLOUD_FILE_RULES: Readonly<Record<MediaKind, { types: string; size: string }>> = {
  image: { types: 'image/jpeg, image/png', size: '5 MB' },
  video: { types: 'video/mp4, video/3gpp', size: '16 MB' },
  audio: { types: 'audio/aac, audio/amr, audio/mpeg, audio/mp4, audio/ogg', size: '16 MB' },
  voice: { types: 'audio/ogg', size: '16 MB' },
  sticker: { types: 'image/webp', size: '100 KB (500 KB when animated)' },
  document: { types: 'any type', size: '100 MB' },
};

const UPLOAD_CAPPED = ['image', 'video', 'audio', 'voice', 'sticker'] as const;

/**
 * The two refusals of a file the Cloud API does not take, as the send routes' 400 lists them. A
 * document's 100 MB is above the inbox's own limit for uploaded bytes: only a `media.url` (the
 * provider's to check) gets near it.
 */
export const CLOUD_FILE_REFUSALS = [
  '`the Cloud API sends <noun> only as <types> (got <type>)`: a Cloud API number and a type it does not take (' +
    UPLOAD_CAPPED.map((kind) => `${kind} ${CLOUD_FILE_RULES[kind].types}`).join('; ') +
    ')',
  '`<noun> for the Cloud API must be at most <size>`: a Cloud API number and uploaded bytes over its limit (' +
    UPLOAD_CAPPED.map((kind) => `${kind} ${CLOUD_FILE_RULES[kind].size}`).join('; ') +
    `; a document's ${CLOUD_FILE_RULES.document.size} is above the inbox's own limit)`,
] as const;

const cloudText = (type: MediaKind): string => {
  const rule = CLOUD_FILE_RULES[type];
  if (type === 'document') return `; on a Cloud API number any type, up to the provider's ${rule.size} by \`media.url\``;
  return `; on a Cloud API number ${rule.types} only, uploaded at most ${rule.size} (else 400, nothing stored)`;
};

const file = (type: MediaKind, what: string, mime: SchemaRules | null, extra = ''): SchemaRules =>
  typed(type, {
    description: `${what}: \`media\`${extra}; at most ${sizeText(mediaRuleOf(type).sendFetchLimit)} (larger: 400, nothing stored)` + cloudText(type),
    required: ['type', 'media'],
    ...(mime ? { properties: { media: { properties: { mime_type: mime } } } } : {}),
  });

// Every send type needs its branch: a type added to SEND_TYPES without one does not compile.
const SENDS: Record<SendType, SchemaRules> = {
  // `type` may be left out for a text.
  text: typed('text', {
    description: 'a text: `body` (or `content`)',
    anyOf: [{ required: ['body'] }, { required: ['content'] }],
    not: { required: ['reaction'] },
  }),
  image: file('image', 'an image', { type: 'string', pattern: '^image/' }, ', `caption`'),
  document: file('document', 'a document', null, ', `caption`'),
  video: file('video', 'a video (MP4 plays everywhere; its playing time is read from an MP4 file)', { type: 'string', pattern: '^video/' }, ', `caption`'),
  audio: file('audio', 'an audio file (its playing time is read from an Ogg/Opus file)', { type: 'string', pattern: '^audio/' }),
  voice: file(
    'voice',
    `a voice note, played as recorded on the phone: Ogg with the Opus codec, checked on the file itself (else 400 \`${VOICE_FORMAT}\`); its playing time is read from it`,
    { type: 'string', pattern: VOICE_MIME_PATTERN },
  ),
  sticker: file('sticker', `a sticker: a WebP image, checked on the file itself (else 400 \`${STICKER_FORMAT}\`)`, { type: 'string', enum: ['image/webp'] }),
  location: typed('location', { description: 'a place: `location`', required: ['type', 'location'] }),
  contacts: typed('contacts', { description: 'contact cards: `contacts` (1 to 10)', required: ['type', 'contacts'] }),
  template: typed('template', { description: 'a template: `template_id`, `parameters`', required: ['type', 'template_id'] }),
  interactive: typed('interactive', {
    ...INTERACTIVE_SEND_RULES,
    description: `${INTERACTIVE_SEND_RULES.description ?? ''}; a Cloud API number's only (on a scan conversation 400 \`${INTERACTIVE_NEEDS_CLOUD}\`)`,
  }),
  // `type` may be left out for a reaction too; it replies to nothing and carries no text.
  reaction: typed('reaction', {
    description: 'a reaction: `reaction` `{message_id, emoji}`; stores no message, answers the message reacted to',
    required: ['reaction'],
    not: { anyOf: [{ required: ['body'] }, { required: ['content'] }, { required: ['reply_to'] }] },
  }),
};

export const SEND_RULES = (types: readonly SendType[]): SchemaRules => ({ allOf: [ONE_TEXT], oneOf: types.map((type) => SENDS[type]) });

/** Starting a conversation: no message at all, or a first message of one of `types` (start-conversation.service.ts). */
export const START_RULES = (types: readonly SendType[]): SchemaRules[] => [
  { description: 'no message: the conversation only', not: { anyOf: [{ required: ['body'] }, { required: ['content'] }, { required: ['type'] }] } },
  ...types.map((type) => SENDS[type]),
];

/** Media is a file given one way: an address, or its bytes with their type. */
export const MEDIA_RULES: SchemaRules = {
  oneOf: [
    { required: ['url'], not: { required: ['data_base64'] } },
    { required: ['data_base64', 'mime_type'], not: { required: ['url'] } },
  ],
};

export const MEDIA_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://\\S+$';
/** Whole base64 quads, padding only at the end, at least one byte. */
export const BASE64_PATTERN = '^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$';
