import type { ContactCard, LocationDetails, PollDetails, ReplyChoice } from './message-details.js';
import type { MessageEntity } from './entities/message.entity.js';

/**
 * The fields every message carries beside the contract's (API, live stream and `scan.chat`
 * alike), empty or null where they do not apply.
 */
export interface MessageParts {
  duration_s: number;
  quoted_message_id: string;
  mentions: string[];
  location: LocationDetails | null;
  contacts: ContactCard[] | null;
  poll: PollDetails | null;
  /** The button or list row a person tapped (its id and title), on a reply to an interactive message or template. */
  reply: ReplyChoice | null;
}

/** A stored message's added parts (a row from raw SQL or JSON may lack the newer columns: they read as empty). */
export function messageParts(row: Pick<MessageEntity, 'durationS' | 'quotedExternalId' | 'details'>): MessageParts {
  const details = row.details ?? null;
  return {
    duration_s: Number(row.durationS ?? 0),
    quoted_message_id: row.quotedExternalId ?? '',
    mentions: details?.mentions ?? [],
    location: details?.location ?? null,
    contacts: details?.contacts ?? null,
    poll: details?.poll ?? null,
    reply: details?.reply ?? null,
  };
}
