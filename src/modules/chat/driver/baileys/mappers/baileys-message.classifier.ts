import { getContentType, normalizeMessageContent, type proto, type WAMessage } from '@whiskeysockets/baileys';
import type { BodyMapper, ContentClass } from './baileys-content.types.js';
import { withContext } from './baileys-context.mapper.js';
import { MEDIA_CONTENT } from './baileys-media.mapper.js';
import { STRUCTURED_CONTENT } from './baileys-structured.mapper.js';
import { TEXT_CONTENT } from './baileys-text.mapper.js';
import { unsupportedBody } from './baileys-unsupported.mapper.js';
import { updateOf } from './baileys-update.mapper.js';

/**
 * Content that is not a message a person sent: protocol traffic (key distribution, app state,
 * history notifications and bundles, sticker syncs), and what acts on other messages without
 * being an update the inbox keeps: poll votes, pins, keep-in-chat, event responses, encrypted
 * reactions and comments' keys, a scheduled call's edit. An album announcement is here too: each
 * of its images and videos arrives as a message of its own. Edits, revokes and reactions are
 * recognised before (updates); the two of them here are the ones naming no target.
 */
const PROTOCOL_CONTENT = new Set<string>([
  'protocolMessage',
  'reactionMessage',
  'encReactionMessage',
  'pollUpdateMessage',
  'keepInChatMessage',
  'pinInChatMessage',
  'encEventResponseMessage',
  'senderKeyDistributionMessage',
  'fastRatchetKeySenderKeyDistributionMessage',
  'messageContextInfo',
  'secretEncryptedMessage',
  'stickerSyncRmrMessage',
  'messageHistoryBundle',
  'messageHistoryNotice',
  'albumMessage',
  'scheduledCallEditMessage',
  'pollCreationOptionImageMessage',
  'eventCoverImage',
  'limitSharingMessage',
  'statusNotificationMessage',
]);

/** Every content type the driver maps, by family; any other content type a person sent is `unsupported`. */
const MESSAGE_CONTENT = new Map<string, BodyMapper>(
  Object.entries({ ...TEXT_CONTENT, ...MEDIA_CONTENT, ...STRUCTURED_CONTENT }).filter((entry): entry is [string, BodyMapper] => entry[1] !== undefined),
);

/**
 * Content a person sends whose field Baileys' `getContentType` does not recognise (it looks for
 * `Message` in the name): a call, and a call's log (`callLogMesssage`, so spelled in WhatsApp's proto).
 */
const UNNAMED_CONTENT = ['call', 'callLogMesssage'] as const satisfies readonly (keyof proto.IMessage)[];

const contentTypeOf = (content: proto.IMessage): string | null => getContentType(content) ?? UNNAMED_CONTENT.find((field) => content[field]) ?? null;

/**
 * The one classification of a message's content, in this order:
 * 1. the wrappers off (ephemeral, view-once, document-with-caption, edited, …); no content left
 *    is a stub (undecryptable for now: the same id comes again once decrypted), not a message;
 * 2. an update of an earlier message (an edit, a revoke, a reaction), wherever its content sits;
 * 3. by Baileys' content type (the first content field): protocol traffic, or a message whose
 *    family's mapper says what it holds, with the reply and mentions of its context; any other
 *    content type is a message the inbox cannot show (`unsupported`), stored all the same.
 */
export function classifyContent(message: proto.IMessage | null | undefined): ContentClass {
  const content = normalizeMessageContent(message);
  if (!content) return { class: 'protocol', contentType: null };
  const contentType = contentTypeOf(content);
  const update = updateOf(content, classifyContent);
  if (update) return { class: 'update', contentType, update };
  if (!contentType || PROTOCOL_CONTENT.has(contentType)) return { class: 'protocol', contentType };
  const mapper = MESSAGE_CONTENT.get(contentType);
  const body = mapper ? mapper(content) : unsupportedBody(contentType);
  return { class: 'message', contentType, body: withContext(body, content, contentType) };
}

/** A Baileys message's class, from its content alone (its chat and sender are the mappers' concern). */
export const classifyMessage = (msg: Pick<WAMessage, 'message'>): ContentClass => classifyContent(msg.message);
