/**
 * Every kind of message the inbox stores, declared once. A kind is what a message row's
 * `message_type` column holds; the catalogue says what each kind is to the API (the contract's
 * coarse `message_type`), how the conversation list previews it, and whether it carries a file.
 *
 * Adding a kind is one entry here: the compiler then points at every switch over kinds (each ends
 * in `assertNever`) and every table keyed by kind, and the preview SQL and the automation and
 * request vocabularies follow from the entry.
 */

/** The contract's `message_type` values: what an API client or webhook sees of a message's kind. */
export const CONTRACT_MESSAGE_TYPES = ['text', 'image', 'document'] as const;
export type ContractMessageType = (typeof CONTRACT_MESSAGE_TYPES)[number];

/**
 * How the conversation list previews a message without text: the file name, when the kind keeps
 * one and it is not empty, else the placeholder. A message with text (a caption) previews as its
 * first 200 characters, whatever its kind.
 */
export interface PreviewRule {
  readonly fileName: boolean;
  readonly placeholder: string;
}

/** What a kind's file is: a kind without one has `media: null`. */
export interface MediaRule {
  /** The kind in a sentence, with its article ("an image"): for the refusals of a wrong file. */
  readonly noun: string;
  /** The mime type family the file must belong to (its prefix, and how a refusal names it), or null for any type. */
  readonly mimeFamily: { readonly prefix: string; readonly named: string } | null;
  /** The mime type assumed when neither the sender nor the file's host names one. */
  readonly defaultMimeType: string;
  /** Whether the sender's file name is kept (stored, served as the download's name), with its stand-in when the sender gave none. */
  readonly fileName: { readonly fallback: string } | null;
  /** Largest file fetched from a `media.url` to send it (held in memory). */
  readonly sendFetchLimit: number;
}

export interface KindSpec {
  readonly messageType: ContractMessageType;
  readonly preview: PreviewRule;
  readonly media: MediaRule | null;
  /** Whether the kind has a playing time (`duration_s`): audio, voice notes, video. */
  readonly timed: boolean;
}

const MB = 1024 * 1024;
const KB = 1024;

/** A media rule over a mime type family, for a kind whose file name WhatsApp does not keep. */
const unnamed = (noun: string, prefix: string, named: string, defaultMimeType: string, sendFetchLimit: number): MediaRule => ({
  noun,
  mimeFamily: { prefix, named },
  defaultMimeType,
  fileName: null,
  sendFetchLimit,
});

/**
 * The kinds. `message_type` is the contract's coarse class (image for image and sticker; document
 * for document, audio, voice and video; text for the rest, whose `content` is a readable
 * rendering). The size limits are WhatsApp's own (the Cloud API documents the same: 16 MB for
 * audio and video, 5 MB for images, 500 KB for an animated sticker, 100 MB for documents); a
 * document's is lower because the file is held in memory while it is sent.
 */
export const MESSAGE_KINDS = {
  // An empty text (no channel hands one in) keeps the preview it always had.
  text: { messageType: 'text', preview: { fileName: true, placeholder: '[document]' }, media: null, timed: false },
  image: {
    messageType: 'image',
    preview: { fileName: false, placeholder: '[image]' },
    media: unnamed('an image', 'image/', 'an image/*', 'image/jpeg', 16 * MB),
    timed: false,
  },
  document: {
    messageType: 'document',
    preview: { fileName: true, placeholder: '[document]' },
    media: { noun: 'a document', mimeFamily: null, defaultMimeType: 'application/octet-stream', fileName: { fallback: 'document' }, sendFetchLimit: 64 * MB },
    timed: false,
  },
  video: {
    messageType: 'document',
    preview: { fileName: false, placeholder: '[video]' },
    media: unnamed('a video', 'video/', 'a video/*', 'video/mp4', 16 * MB),
    timed: true,
  },
  audio: {
    messageType: 'document',
    preview: { fileName: false, placeholder: '[audio]' },
    media: unnamed('an audio file', 'audio/', 'an audio/*', 'audio/mpeg', 16 * MB),
    timed: true,
  },
  voice: {
    messageType: 'document',
    preview: { fileName: false, placeholder: '[voice message]' },
    media: unnamed('a voice note', 'audio/', 'an audio/ogg (Opus)', 'audio/ogg; codecs=opus', 16 * MB),
    timed: true,
  },
  sticker: {
    messageType: 'image',
    preview: { fileName: false, placeholder: '[sticker]' },
    media: unnamed('a sticker', 'image/', 'an image/webp', 'image/webp', 500 * KB),
    timed: false,
  },
  // The structured kinds' content is their readable rendering (message-details.ts), so their
  // placeholder shows only for one that somehow has none.
  location: { messageType: 'text', preview: { fileName: false, placeholder: '[location]' }, media: null, timed: false },
  contacts: { messageType: 'text', preview: { fileName: false, placeholder: '[contact]' }, media: null, timed: false },
  poll: { messageType: 'text', preview: { fileName: false, placeholder: '[poll]' }, media: null, timed: false },
  unsupported: { messageType: 'text', preview: { fileName: false, placeholder: '[unsupported message]' }, media: null, timed: false },
} as const satisfies Record<string, KindSpec>;

export type MessageKind = keyof typeof MESSAGE_KINDS;
/** Every kind, in the catalogue's order. */
export const MESSAGE_KIND_NAMES = Object.keys(MESSAGE_KINDS) as readonly MessageKind[];

/** The kinds that carry a file. */
export type MediaKind = { [K in MessageKind]: (typeof MESSAGE_KINDS)[K]['media'] extends null ? never : K }[MessageKind];
export const MEDIA_KINDS = MESSAGE_KIND_NAMES.filter((kind): kind is MediaKind => MESSAGE_KINDS[kind].media !== null);

export const isMessageKind = (value: unknown): value is MessageKind => typeof value === 'string' && Object.hasOwn(MESSAGE_KINDS, value);
export const isMediaKind = (value: unknown): value is MediaKind => isMessageKind(value) && MESSAGE_KINDS[value].media !== null;

/** The contract's `message_type` of a kind: what the API, the live events and webhooks show. */
export const messageTypeOf = (kind: MessageKind): ContractMessageType => MESSAGE_KINDS[kind].messageType;

export const mediaRuleOf = (kind: MediaKind): MediaRule => MESSAGE_KINDS[kind].media;

/** Whether a kind keeps a playing time (`duration_s`). */
export const isTimedKind = (kind: MessageKind): boolean => MESSAGE_KINDS[kind].timed;

/** Whether a kind keeps the sender's file name (a document's; an image's is not kept). */
export const keepsFileName = (kind: MessageKind): boolean => MESSAGE_KINDS[kind].media?.fileName != null;

/** The file name a stored file of `kind` is served under: the sender's (or its stand-in) for a kind that keeps one, else null. */
export function storedFileName(kind: MessageKind, fileName: string): string | null {
  const rule = MESSAGE_KINDS[kind].media?.fileName;
  return rule ? fileName || rule.fallback : null;
}

/** The end of an exhaustive switch: a kind (or any union member) left unhandled fails to compile here. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${String(value)}`);
}

const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** A kind's preview when its message has no text, over its file name expression. */
function placeholderSql(rule: PreviewRule, fileName: string): string {
  return rule.fileName ? `CASE WHEN ${fileName} <> '' THEN ${fileName} ELSE ${quote(rule.placeholder)} END` : quote(rule.placeholder);
}

/**
 * The conversation list's one-line preview of a message as SQL, over three expressions (content,
 * kind, file name). Built from the catalogue; a kind value outside it (none is ever stored: ingest
 * and sends refuse one) previews as `[<kind>]` rather than as any other kind.
 */
export function previewCaseSql(content: string, kind: string, fileName: string): string {
  const branches = MESSAGE_KIND_NAMES.map((name) => `WHEN ${quote(name)} THEN ${placeholderSql(MESSAGE_KINDS[name].preview, fileName)}`);
  return `CASE WHEN ${content} <> '' THEN left(${content}, 200)
        ELSE CASE ${kind} ${branches.join(' ')} ELSE '[' || ${kind} || ']' END END`;
}
