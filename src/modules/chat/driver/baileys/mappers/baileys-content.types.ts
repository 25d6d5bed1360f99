import type { proto } from '@whiskeysockets/baileys';
import type { MessageDetails } from '../../../../inbox/message-details.js';
import type { MessageKind } from '../../../../inbox/message-kinds.js';
import type { ScanMedia } from '../../scan-driver.port.js';

// Types only (erased at run time): the shapes the mappers of this folder hand each other.

/**
 * What a message says, whatever wrapped it: its kind, its text (a caption, or a structured kind's
 * rendering), its file, and what only some kinds have (each present only when it applies).
 */
export interface MessageBody {
  type: MessageKind;
  content: string;
  media: ScanMedia | null;
  /** Playing time in seconds: audio, voice notes, video. */
  durationS?: number;
  /** The channel id of the message this one replies to. */
  quotedExternalId?: string;
  /** A place, contact cards, a poll, a tapped reply button, the jids a message mentions. */
  details?: MessageDetails;
}

/** Maps the content of one Baileys content type (its field of `proto.IMessage`) to a body. */
export type BodyMapper = (message: proto.IMessage) => MessageBody;

/** A family's content types and their mappers: the classifier's table is their union. */
export type BodyMappers = Readonly<Partial<Record<keyof proto.IMessage, BodyMapper>>>;

/**
 * What a message does to an earlier message of the same chat, named by its id. Who did it is the
 * message's own sender (its envelope), not part of the content.
 */
export type MessageUpdate =
  /** Its sender changed its text (or caption) to `content`. */
  | { type: 'edit'; externalId: string; content: string }
  /** A reaction to the message; an empty emoji takes the sender's reaction back. */
  | { type: 'reaction'; externalId: string; emoji: string }
  /** Deleted for everyone ("This message was deleted"). */
  | { type: 'revoke'; externalId: string };

/**
 * What one Baileys message is, decided once (`classifyContent`): a message a person sent (of the
 * kind its body says, `unsupported` for content the inbox cannot show), an update of an earlier
 * message, or protocol traffic (key distribution, app-state and history notifications, poll
 * votes, a stub without content): nothing of it reaches the inbox. `contentType` is Baileys' name
 * of the content (`conversation`, `imageMessage`, …) after unwrapping; null when there is none.
 */
export type ContentClass =
  | { class: 'message'; contentType: string; body: MessageBody }
  | { class: 'update'; contentType: string | null; update: MessageUpdate }
  | { class: 'protocol'; contentType: string | null };

/** Who the socket is logged in as, for own messages (normalised jids, no device part). */
export interface OwnJids {
  jid: string | null;
  lid: string | null;
}
