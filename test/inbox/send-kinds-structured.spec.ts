import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { buildVcard } from '../../src/modules/inbox/message-details.js';
import { type SendChat, type SendKinds, startSendKinds } from './send-kinds-support.js';

/**
 * The structured kinds a send may create (location, contact cards), through the API and the scan
 * channel's gateway (its sessions recorded), and the requests refused before anything is stored.
 */
describe('sending places and contact cards', () => {
  let k: SendKinds;

  beforeAll(async () => {
    k = await startSendKinds();
  });
  afterAll(async () => {
    await k?.close();
  });

  const chat = (group?: boolean): Promise<SendChat> => k.chat(group);
  const send = (c: SendChat, body: object) => k.send(c, body);
  const sentBy = (ws: string) => k.sentBy(ws);
  const outbound = (ws: string) => k.outbound(ws);

  it('sends a location and contact cards, stored as their readable text with their parts', async () => {
    const c = await chat();
    const place = await send(c, {
      type: 'location',
      location: { latitude: 52.516275, longitude: 13.377704, name: 'Brandenburg Gate', address: 'Pariser Platz, Berlin', url: 'https://example.com/gate' },
    });
    expect(place.status).toBe(201);
    expect(place.body).toMatchObject({
      kind: 'location',
      message_type: 'text',
      content: 'Brandenburg Gate, Pariser Platz, Berlin (52.516275, 13.377704)\nhttps://example.com/gate',
      location: { latitude: 52.516275, longitude: 13.377704, name: 'Brandenburg Gate', address: 'Pariser Platz, Berlin', url: 'https://example.com/gate' },
    });
    const cards = await send(c, {
      type: 'contacts',
      contacts: [
        { name: 'Ada Lovelace', phones: ['+49 151 2345 6789', '+4930123456'] },
        { name: 'Charles', phones: ['15551234567'] },
      ],
    });
    expect(cards.status).toBe(201);
    const ada = { name: 'Ada Lovelace', phones: ['4915123456789', '4930123456'], vcard: buildVcard('Ada Lovelace', ['4915123456789', '4930123456']) };
    const charles = { name: 'Charles', phones: ['15551234567'], vcard: buildVcard('Charles', ['15551234567']) };
    expect(cards.body).toMatchObject({
      kind: 'contacts',
      content: 'Ada Lovelace: +4915123456789, +4930123456\nCharles: +15551234567',
      contacts: [ada, charles],
    });
    await k.sent(place.body.id);
    await k.sent(cards.body.id);
    expect(sentBy(c.ws)).toEqual([
      { type: 'location', location: place.body.location, messageId: waMessageId(place.body.id) },
      { type: 'contacts', contacts: [ada, charles], messageId: waMessageId(cards.body.id) },
    ]);
  });

  it('refuses a bad place or card, an unknown type, a bad reply_to and a Cloud-only kind with 400, storing and sending nothing', async () => {
    const c = await chat();
    const cases: [object, string][] = [
      [{ type: 'location' }, 'location is required for location messages'],
      [{ type: 'location', location: { latitude: 91, longitude: 0 } }, 'location.latitude must be a number between -90 and 90'],
      [{ type: 'location', location: { latitude: 0, longitude: '13' } }, 'location.longitude must be a number between -180 and 180'],
      [{ type: 'location', location: { latitude: 0, longitude: 0, url: 'javascript:alert(1)' } }, 'location url must be an http or https address'],
      [{ type: 'contacts', contacts: [] }, 'contacts must be a list of 1 to 10 cards'],
      [{ type: 'contacts', contacts: Array.from({ length: 11 }, () => ({ name: 'A', phones: ['15551234567'] })) }, 'contacts must be a list of 1 to 10 cards'],
      [{ type: 'contacts', contacts: [{ name: ' ', phones: ['15551234567'] }] }, 'contacts[0].name must not be blank'],
      [{ type: 'contacts', contacts: [{ name: 'Ada', phones: ['15551234567', 'call me'] }] }, 'contacts[0].phones[1] is not a phone number'],
      [
        { type: 'poll', body: 'x' },
        'type must be one of text, image, document, video, audio, voice, sticker, location, contacts, template, interactive, reaction',
      ],
      [{ body: 'hi', reply_to: 'nope' }, 'invalid reply_to id'],
      [
        { type: 'interactive', interactive: { type: 'buttons', body: 'Tomorrow?', buttons: [{ id: 'y', title: 'Yes' }] } },
        'interactive messages need a Cloud API number',
      ],
    ];
    for (const [body, error] of cases) {
      const res = await send(c, body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error });
    }
    expect(sentBy(c.ws)).toEqual([]);
    expect(await outbound(c.ws)).toBe(0);
  });
});
