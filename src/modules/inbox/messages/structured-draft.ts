import { ApiError } from '../../../infra/http/api-error.js';
import type { ContactCardDto, LocationDto } from '../dto/message.dto.js';
import { normalizePhone } from '../jid.js';
import { buildVcard, type ContactCard, type LocationDetails, renderContacts, renderLocation } from '../message-details.js';
import type { OutgoingDraft } from './outgoing-draft.js';

/**
 * The structured sends: a place and contact cards. Stored as their readable rendering
 * (`content`, what a client that knows only the contract shows) with the parts in `details`,
 * as the same kinds are stored when they arrive.
 */

const row = (type: 'location' | 'contacts', content: string, now: Date) => ({
  type,
  content,
  mediaUrl: '',
  mimeType: '',
  fileName: '',
  fileSize: 0,
  timestamp: now,
});

/** `location`: coordinates in range (the DTO's rules), a name, an address and an http(s) link when given. */
export function locationDraft(input: LocationDto | undefined, now = new Date()): OutgoingDraft {
  if (!input) throw ApiError.badRequest('location is required for location messages');
  const url = input.url?.trim() ?? '';
  if (url && !/^https?:\/\/\S+$/i.test(url)) throw ApiError.badRequest('location url must be an http or https address');
  const location: LocationDetails = {
    latitude: input.latitude,
    longitude: input.longitude,
    name: input.name?.trim() ?? '',
    address: input.address?.trim() ?? '',
    url,
  };
  return { row: { ...row('location', renderLocation(location), now), details: { location } }, outgoing: { type: 'location', location } };
}

/** `contacts`: 1 to 10 cards (the DTO's rules), each a name and phone numbers; the vCard is built from them. */
export function contactsDraft(input: ContactCardDto[] | undefined, now = new Date()): OutgoingDraft {
  if (!input) throw ApiError.badRequest('contacts is required for contacts messages');
  const contacts: ContactCard[] = input.map((card, i) => {
    const name = card.name.trim();
    if (!name) throw ApiError.badRequest(`contacts[${i}].name must not be blank`);
    const phones: string[] = [];
    card.phones.forEach((raw, j) => {
      const phone = normalizePhone(raw);
      if (!phone) throw ApiError.badRequest(`contacts[${i}].phones[${j}] is not a phone number`);
      if (!phones.includes(phone)) phones.push(phone);
    });
    return { name, phones, vcard: buildVcard(name, phones) };
  });
  return { row: { ...row('contacts', renderContacts(contacts), now), details: { contacts } }, outgoing: { type: 'contacts', contacts } };
}
