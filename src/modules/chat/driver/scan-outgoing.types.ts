import type { ContactCard, LocationDetails } from '../../inbox/message-details.js';
import type { MediaKind, MessageKind } from '../../inbox/message-kinds.js';

/**
 * What the scan channel sends through its socket (`ScanSocket.send`, scan-driver.port.ts): a new
 * message of a kind, or a change to an earlier one (reaction, delete for everyone, edit), the
 * messages they refer to by their WhatsApp key, and what the socket answers. No Baileys type
 * crosses this file either: the adapter maps these (baileys-outgoing.mapper.ts).
 */

/**
 * A message of the chat that a send refers to, as WhatsApp names it (its key) with what it said:
 * the message a reply quotes, or the one a reaction, a delete or an edit acts on.
 */
export interface ScanMessageRef {
  externalId: string;
  /** This number sent it. */
  fromMe: boolean;
  /** Who wrote it: a group's participant; null in a one-to-one chat and for this number's own. */
  participant: string | null;
  type: MessageKind;
  /** Its text (a caption, a structured kind's rendering): what a quote shows. */
  content: string;
}

/** A new message, by kind. `durationS`: a timed file's playing time when the inbox could read it (0 or absent: unknown). */
export type ScanContent =
  | { type: 'text'; body: string }
  | { type: MediaKind; data: Buffer; mimeType: string; fileName: string; caption: string; durationS?: number }
  | { type: 'location'; location: LocationDetails }
  | { type: 'contacts'; contacts: ContactCard[] };

/**
 * What the service sends: a new message (quoting `quoted` when it replies), or a change to an
 * earlier one: a reaction (`emoji` '' takes this number's back), a delete for everyone of this
 * number's message, or a new text of this number's text. WhatsApp carries all of them as
 * messages, so they go the same way (`ScanSocket.send`, and across processes the same call).
 */
export type ScanOutgoing =
  | (ScanContent & {
      quoted?: ScanMessageRef | null;
      /**
       * WhatsApp's id for the new message, chosen by the service (`waMessageId`), so a send repeated
       * after a crash carries the same id and the recipient's phone shows it once. Absent: the
       * driver picks one.
       */
      messageId?: string;
    })
  | { type: 'reaction'; target: ScanMessageRef; emoji: string }
  | { type: 'revoke'; target: ScanMessageRef }
  | { type: 'edit'; target: ScanMessageRef; body: string };

export interface ScanReadKey {
  chatJid: string;
  externalId: string;
  /** The sender in groups. */
  participant: string | null;
}

/** A message the socket sent: the channel's id, and who sent it (this number's jid, no device part). */
export interface ScanSent {
  externalId: string;
  senderJid?: string | null;
}

/** A chat state shown to the chat: typing, recording a voice note, or stopped (`ScanSocket.presence`). */
export type ScanPresence = 'composing' | 'recording' | 'paused';

/** Whether a phone number has a WhatsApp account (`ScanSocket.lookup`): its chat id when it has. */
export interface ScanNumberLookup {
  /** The number asked about, digits only. */
  phone: string;
  exists: boolean;
  /** `<digits>@s.whatsapp.net` as WhatsApp answered it; null when not on WhatsApp. */
  jid: string | null;
}
