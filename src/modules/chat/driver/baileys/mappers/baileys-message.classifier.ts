import { getContentType, normalizeMessageContent, type proto, type WAMessage } from '@whiskeysockets/baileys';
import type { BodyMapper, ContentClass } from './baileys-content.types.js';
import { MEDIA_CONTENT } from './baileys-media.mapper.js';
import { otherBody, STRUCTURED_CONTENT } from './baileys-structured.mapper.js';
import { TEXT_CONTENT } from './baileys-text.mapper.js';
import { updateOf } from './baileys-update.mapper.js';

/**
 * Content that is not a message a person wrote: protocol traffic (key distribution, app state,
 * history notifications), and what acts on other messages without an update of its own yet:
 * reactions, poll votes, pins, keep-in-chat, event responses. Edits are recognised before (an
 * update); reactions move out of this list when they become updates.
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
  'messageContextInfo',
  'secretEncryptedMessage',
]);

/** Every content type the driver maps, by family; any other content type is a message of kind `other`. */
const MESSAGE_CONTENT = new Map<string, BodyMapper>(
  Object.entries({ ...TEXT_CONTENT, ...MEDIA_CONTENT, ...STRUCTURED_CONTENT }).filter((entry): entry is [string, BodyMapper] => entry[1] !== undefined),
);

/**
 * The one classification of a message's content, in this order:
 * 1. the wrappers off (ephemeral, view-once, document-with-caption, edited, …); no content left
 *    is a stub (undecryptable for now: the same id comes again once decrypted), not a message;
 * 2. an update of an earlier message (an edit), wherever its `protocolMessage` sits;
 * 3. by Baileys' content type (the first content field): protocol traffic, or a message whose
 *    family's mapper says what it holds.
 */
export function classifyContent(message: proto.IMessage | null | undefined): ContentClass {
  const content = normalizeMessageContent(message);
  if (!content) return { class: 'protocol', contentType: null };
  const contentType = getContentType(content) ?? null;
  const update = updateOf(content, classifyContent);
  if (update) return { class: 'update', contentType, update };
  if (!contentType || PROTOCOL_CONTENT.has(contentType)) return { class: 'protocol', contentType };
  const body = (MESSAGE_CONTENT.get(contentType) ?? otherBody)(content);
  return { class: 'message', contentType, body };
}

/** A Baileys message's class, from its content alone (its chat and sender are the mappers' concern). */
export const classifyMessage = (msg: Pick<WAMessage, 'message'>): ContentClass => classifyContent(msg.message);
