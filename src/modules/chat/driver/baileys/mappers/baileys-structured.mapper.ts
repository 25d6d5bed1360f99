import type { proto } from '@whiskeysockets/baileys';
import { type ContactCard, type MessageDetails, renderDetails, vcardName, vcardPhones } from '../../../../inbox/message-details.js';
import type { MessageKind } from '../../../../inbox/message-kinds.js';
import type { BodyMappers, MessageBody } from './baileys-content.types.js';

/** A structured body: its `content` is the details' readable rendering, as on every channel. */
const structured = (type: MessageKind, details: MessageDetails): MessageBody => ({ type, content: renderDetails(details) ?? '', media: null, details });

const coordinate = (value: number | null | undefined): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A place the sender picked or is at. */
function locationBody(message: proto.IMessage): MessageBody {
  const place = message.locationMessage!;
  return structured('location', {
    location: {
      latitude: coordinate(place.degreesLatitude),
      longitude: coordinate(place.degreesLongitude),
      name: place.name ?? '',
      address: place.address ?? '',
      url: place.url ?? '',
    },
  });
}

/**
 * A live location is stored as the position it starts at: its later moves are updates of the
 * sharing that the inbox does not follow. It names no place.
 */
function liveLocationBody(message: proto.IMessage): MessageBody {
  const live = message.liveLocationMessage!;
  return structured('location', {
    location: { latitude: coordinate(live.degreesLatitude), longitude: coordinate(live.degreesLongitude), name: '', address: '', url: '' },
  });
}

/** A contact card: its display name (else the vCard's FN) and the phone numbers of its vCard. */
function card(contact: proto.Message.IContactMessage): ContactCard {
  const vcard = contact.vcard ?? '';
  return { name: contact.displayName || vcardName(vcard), phones: vcardPhones(vcard), vcard };
}

const contactsBody = (cards: ContactCard[]): MessageBody => structured('contacts', { contacts: cards });

/** A poll: any number of answers unless exactly one may be chosen (`selectableOptionsCount` 0 means any). */
function poll(creation: proto.Message.IPollCreationMessage | null | undefined): MessageBody {
  const options = (creation?.options ?? []).map((option) => option.optionName ?? '');
  return structured('poll', { poll: { question: creation?.name ?? '', options, multiple: creation?.selectableOptionsCount !== 1 } });
}

/**
 * The structured family: a place, contact cards, a poll (each version of its message; V4 is the
 * poll inside a future-proof wrapper). A poll's votes (`pollUpdateMessage`) are updates of the
 * poll, not messages.
 */
export const STRUCTURED_CONTENT: BodyMappers = {
  locationMessage: locationBody,
  liveLocationMessage: liveLocationBody,
  contactMessage: (message) => contactsBody([card(message.contactMessage!)]),
  contactsArrayMessage: (message) => contactsBody((message.contactsArrayMessage!.contacts ?? []).map(card)),
  pollCreationMessage: (message) => poll(message.pollCreationMessage),
  pollCreationMessageV2: (message) => poll(message.pollCreationMessageV2),
  pollCreationMessageV3: (message) => poll(message.pollCreationMessageV3),
  pollCreationMessageV4: (message) => {
    const inner = message.pollCreationMessageV4?.message;
    return poll(inner?.pollCreationMessage ?? inner?.pollCreationMessageV2 ?? inner?.pollCreationMessageV3 ?? inner?.pollCreationMessageV5);
  },
  pollCreationMessageV5: (message) => poll(message.pollCreationMessageV5),
};
