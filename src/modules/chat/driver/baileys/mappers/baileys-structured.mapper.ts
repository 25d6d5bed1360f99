import type { BodyMappers, MessageBody } from './baileys-content.types.js';

/** Content the inbox has no kind for: handed over as `other`, which the inbox does not store. */
export const otherBody = (): MessageBody => ({ type: 'other', content: '', media: null });

/**
 * The structured family: a place, contact cards, a poll. No kind of the inbox holds them yet, so
 * each is `other`, as any content type the classifier does not know; a kind of their own (in the
 * inbox's catalogue, `src/modules/inbox/message-kinds.ts`) gets its mapper here. A poll's votes
 * (`pollUpdateMessage`) are updates of the poll, not messages.
 */
export const STRUCTURED_CONTENT: BodyMappers = {
  locationMessage: otherBody,
  liveLocationMessage: otherBody,
  contactMessage: otherBody,
  contactsArrayMessage: otherBody,
  pollCreationMessage: otherBody,
  pollCreationMessageV2: otherBody,
  pollCreationMessageV3: otherBody,
};
