import { ApiError } from '../../../infra/http/api-error.js';
import { isUuid } from '../dto/id.pipe.js';
import { EMOJI_RULE } from '../dto/message-request.schema.js';
import type { SendMessageDto } from '../dto/message.dto.js';

/** A reaction a send asks for, checked before any lookup. */
export interface ReactionRequest {
  /** Our id of the message reacted to. */
  messageId: string;
  /** '' takes this number's reaction back. */
  emoji: string;
}

// One emoji as WhatsApp's pickers make them: any RGI emoji (skin tones, flags, keycaps, ZWJ
// sequences), or a single pictograph with or without its emoji presentation selector (`❤` and
// `❤️` both). Built at run time: the `v` flag is newer than the compiler's target.
const ONE_EMOJI = new RegExp('^(?:\\p{RGI_Emoji}|\\p{Extended_Pictographic}\\uFE0F?)$', 'v');

/** Whether a send is a reaction: it has `reaction`, or says `type: "reaction"`. */
export const isReaction = (dto: SendMessageDto): boolean => dto.type === 'reaction' || dto.reaction !== undefined;

/**
 * `{reaction: {message_id, emoji}}`, with `type: "reaction"` or none. A reaction is no message: it
 * carries no text and replies to nothing, and a body that also names another type is refused
 * rather than guessed.
 */
export function parseReaction(dto: SendMessageDto): ReactionRequest {
  if (dto.type !== undefined && dto.type !== 'reaction') throw ApiError.badRequest(`reaction goes with type reaction (or no type), not ${dto.type}`);
  const reaction = dto.reaction;
  if (!reaction) throw ApiError.badRequest('reaction is required for reaction messages');
  if (dto.body !== undefined || dto.content !== undefined) throw ApiError.badRequest('a reaction has no text: send the text as a message of its own');
  if (dto.reply_to !== undefined) throw ApiError.badRequest('a reaction replies to nothing: name the message in reaction.message_id');
  if (!isUuid(reaction.message_id)) throw ApiError.badRequest('invalid reaction.message_id');
  if (reaction.emoji !== '' && !ONE_EMOJI.test(reaction.emoji)) throw ApiError.badRequest(`reaction.emoji must be ${EMOJI_RULE}`);
  return { messageId: reaction.message_id.toLowerCase(), emoji: reaction.emoji };
}
