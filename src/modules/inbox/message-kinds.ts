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
}

const MB = 1024 * 1024;

export const MESSAGE_KINDS = {
  // An empty text (no channel hands one in) keeps the preview it always had.
  text: { messageType: 'text', preview: { fileName: true, placeholder: '[document]' }, media: null },
  image: {
    messageType: 'image',
    preview: { fileName: false, placeholder: '[image]' },
    // WhatsApp's own limit for images.
    media: { noun: 'an image', mimeFamily: { prefix: 'image/', named: 'an image/*' }, defaultMimeType: 'image/jpeg', fileName: null, sendFetchLimit: 16 * MB },
  },
  document: {
    messageType: 'document',
    preview: { fileName: true, placeholder: '[document]' },
    // A modest limit: the file is held in memory while it is sent.
    media: { noun: 'a document', mimeFamily: null, defaultMimeType: 'application/octet-stream', fileName: { fallback: 'document' }, sendFetchLimit: 64 * MB },
  },
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
