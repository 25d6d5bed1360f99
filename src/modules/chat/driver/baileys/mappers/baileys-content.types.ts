import type { proto } from '@whiskeysockets/baileys';
import type { ScanMedia, ScanMessageType } from '../../scan-driver.port.js';

// Types only (erased at run time): the shapes the mappers of this folder hand each other.

/** What a message says, whatever wrapped it: its kind, its text (or caption), its file. */
export interface MessageBody {
  type: ScanMessageType;
  content: string;
  media: ScanMedia | null;
}

/** Maps the content of one Baileys content type (its field of `proto.IMessage`) to a body. */
export type BodyMapper = (message: proto.IMessage) => MessageBody;

/** A family's content types and their mappers: the classifier's table is their union. */
export type BodyMappers = Readonly<Partial<Record<keyof proto.IMessage, BodyMapper>>>;

/**
 * What a message does to an earlier message of the same chat, named by its id. Reactions
 * (`reactionMessage`) and revokes (`protocolMessage` REVOKE) are the next members: until then the
 * classifier takes them for protocol traffic.
 */
export type MessageUpdate =
  /** Its sender changed its text (or caption) to `content`. */
  { type: 'edit'; externalId: string; content: string };

/**
 * What one Baileys message is, decided once (`classifyContent`): a message a person wrote (of the
 * kind its body says, `other` for one the inbox has no kind for), an update of an earlier
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
