import { describe, expect, it } from '@jest/globals';
import { outgoingContent, resendContent } from '../../src/modules/chat/driver/baileys/mappers/baileys-outgoing.mapper.js';

// What the driver hands Baileys to send, and what it rebuilds for a resend request.
describe('Baileys mappers: outgoing', () => {
  const data = Buffer.from('file');
  it.each<[string, Parameters<typeof outgoingContent>[1], object]>([
    ['text, without a link preview', { type: 'text', body: 'see https://example.com' }, { text: 'see https://example.com', linkPreview: null }],
    [
      'an image without caption',
      { type: 'image', data, mimeType: 'image/png', fileName: '', caption: '' },
      { image: data, mimetype: 'image/png', caption: undefined },
    ],
    [
      'a document',
      { type: 'document', data, mimeType: 'application/pdf', fileName: 'a.pdf', caption: 'the offer' },
      {
        document: data,
        mimetype: 'application/pdf',
        fileName: 'a.pdf',
        caption: 'the offer',
      },
    ],
  ])('sends %s', (_name, outgoing, expected) => {
    expect(outgoingContent('15550001111@s.whatsapp.net', outgoing)).toEqual({ content: expected, options: {} });
  });

  it('rebuilds texts, locations and contact cards for a resend request, not files', () => {
    expect(resendContent({ type: 'text', content: 'hello' })).toEqual({ conversation: 'hello' });
    const location = { latitude: 52.5, longitude: 13.4, name: 'Gate', address: '', url: '' };
    expect(resendContent({ type: 'location', content: 'Gate (52.5, 13.4)', details: { location } })).toEqual({
      locationMessage: { degreesLatitude: 52.5, degreesLongitude: 13.4, name: 'Gate' },
    });
    const card = { name: 'Ada', phones: ['4915123456789'], vcard: 'BEGIN:VCARD\nEND:VCARD' };
    expect(resendContent({ type: 'contacts', content: 'Ada: +4915123456789', details: { contacts: [card] } })).toEqual({
      contactMessage: { displayName: 'Ada', vcard: card.vcard },
    });
    expect(resendContent({ type: 'image', content: 'caption' })).toBeUndefined();
    expect(resendContent(undefined)).toBeUndefined();
  });
});
