import type { proto } from '@whiskeysockets/baileys';
import { contextInfo, GROUP, MEDIA_KEY, PEER, PEER_LID, PEER_PN, skdm } from './baileys-mappers.fixtures.js';

/**
 * Content a person sends, by family (text, media, structured, unsupported), encoded as the sender
 * did (the spec decodes it with `wire`), and what the classifier makes of each.
 */

const image = {
  mimetype: 'image/jpeg',
  fileLength: 48213,
  mediaKey: MEDIA_KEY,
  directPath: '/v/t62.7118-24/1.enc',
  url: 'https://mmg.whatsapp.net/v/t62.7118-24/1.enc',
};
const pdf = { fileName: 'offer.pdf', mimetype: 'application/pdf', fileLength: 1048576, mediaKey: MEDIA_KEY, directPath: '/v/t62.7119-24/2.enc' };
const quoted = { stanzaId: 'IN0', participant: PEER, quotedMessage: { conversation: 'the question' } };

/** Content a person sent, and what it classifies as: its content type, kind, text (or caption), and any other field of its body. */
export interface MessageCase {
  name: string;
  content: proto.IMessage;
  contentType: string;
  /** The kind it is handed over as. */
  type: string;
  text: string;
  /** durationS, quotedExternalId, details, media (matched, not all of the body). */
  extra: Record<string, unknown>;
}
const message = (name: string, content: proto.IMessage, contentType: string, type: string, text = '', extra: Record<string, unknown> = {}): MessageCase => ({
  name,
  content,
  contentType,
  type,
  text,
  extra,
});
const poll = { name: 'Lunch?', options: [{ optionName: 'yes' }, { optionName: 'no' }], selectableOptionsCount: 1 };
const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Bob\nEND:VCARD';
const bobCard = 'BEGIN:VCARD\nVERSION:3.0\nN:;Bob;;;\nFN:Bob Builder\nTEL;type=CELL;type=VOICE;waid=4915112345678:+49 151 12345678\nEND:VCARD';
const adaCard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Ada\nitem1.TEL:+44 20 7946 0000\nTEL;type=WORK:+1 (555) 000-1234\nEND:VCARD';
const voice = { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3, fileLength: 5120, mediaKey: MEDIA_KEY, directPath: '/v/t62.7117-24/5.enc' };
const video = { mimetype: 'video/mp4', seconds: 12, fileLength: 900000, mediaKey: MEDIA_KEY, directPath: '/v/t62.7161-24/6.enc' };
const mention = { mentionedJid: [`${PEER_LID}:4@lid`, PEER_PN, PEER_PN] };

/** Content a person sent, by family (text, media, structured, unsupported): what each classifies as. */
export const MESSAGE_CONTENT: MessageCase[] = [
  message('plain text', { conversation: 'hello' }, 'conversation', 'text', 'hello'),
  message(
    'text with a link preview',
    { extendedTextMessage: { text: 'see https://example.com', matchedText: 'https://example.com', title: 'Example' }, messageContextInfo: contextInfo },
    'extendedTextMessage',
    'text',
    'see https://example.com',
  ),
  message('a reply', { extendedTextMessage: { text: 'the answer', contextInfo: quoted } }, 'extendedTextMessage', 'text', 'the answer', {
    quotedExternalId: 'IN0',
  }),
  message('a group message carrying its sender key', { senderKeyDistributionMessage: skdm, conversation: 'hi team' }, 'conversation', 'text', 'hi team'),
  message(
    'mentions, device parts dropped, each once',
    { extendedTextMessage: { text: '@88888888888888 @15550002222 look', contextInfo: mention } },
    'extendedTextMessage',
    'text',
    '@88888888888888 @15550002222 look',
    { details: { mentions: [PEER, PEER_PN] } },
  ),
  message('disappearing text', { ephemeralMessage: { message: { extendedTextMessage: { text: 'gone soon' } } } }, 'extendedTextMessage', 'text', 'gone soon'),
  message('nested wrappers', { ephemeralMessage: { message: { viewOnceMessage: { message: { conversation: 'twice' } } } } }, 'conversation', 'text', 'twice'),
  message('text in an edited wrapper', { editedMessage: { message: { conversation: 'as edited' } } }, 'conversation', 'text', 'as edited'),
  message(
    'a reply button tapped',
    { buttonsResponseMessage: { selectedButtonId: 'yes-1', selectedDisplayText: 'Yes please', type: 1 } },
    'buttonsResponseMessage',
    'text',
    'Yes please',
    { details: { reply: { id: 'yes-1', title: 'Yes please' } } },
  ),
  message(
    'a list row chosen',
    { listResponseMessage: { title: 'Tuesday', listType: 1, singleSelectReply: { selectedRowId: 'day-2' } } },
    'listResponseMessage',
    'text',
    'Tuesday',
    { details: { reply: { id: 'day-2', title: 'Tuesday' } } },
  ),
  message(
    'a native-flow button tapped',
    { interactiveResponseMessage: { body: { text: 'Book now' }, nativeFlowResponseMessage: { name: 'quick_reply', paramsJson: '{"id":"book"}', version: 1 } } },
    'interactiveResponseMessage',
    'text',
    'Book now',
    { details: { reply: { id: 'book', title: 'Book now' } } },
  ),
  message('an image with a caption', { imageMessage: { ...image, caption: 'look' }, messageContextInfo: contextInfo }, 'imageMessage', 'image', 'look'),
  message('a view-once image', { viewOnceMessageV2: { message: { imageMessage: { ...image, caption: 'once' } } } }, 'imageMessage', 'image', 'once'),
  message('an image replying to a message', { imageMessage: { ...image, contextInfo: { stanzaId: 'IN7', participant: PEER } } }, 'imageMessage', 'image', '', {
    quotedExternalId: 'IN7',
  }),
  message('a document', { documentMessage: pdf }, 'documentMessage', 'document'),
  message(
    'a document with a caption',
    { documentWithCaptionMessage: { message: { documentMessage: { ...pdf, caption: 'the offer' } } } },
    'documentMessage',
    'document',
    'the offer',
  ),
  message('a video with a caption', { videoMessage: { ...video, caption: 'watch this' } }, 'videoMessage', 'video', 'watch this', {
    durationS: 12,
    media: { mimeType: 'video/mp4', fileName: '', fileSize: 900000 },
  }),
  message('a video without caption', { videoMessage: video }, 'videoMessage', 'video', '', { durationS: 12 }),
  message('a GIF (a video played as a loop)', { videoMessage: { ...video, seconds: 2, gifPlayback: true } }, 'videoMessage', 'video', '', { durationS: 2 }),
  message('a round video note', { ptvMessage: video }, 'ptvMessage', 'video', '', { durationS: 12 }),
  message('a view-once video', { viewOnceMessage: { message: { videoMessage: { ...video, viewOnce: true } } } }, 'videoMessage', 'video', '', {
    durationS: 12,
  }),
  message('a voice note', { audioMessage: voice }, 'audioMessage', 'voice', '', {
    durationS: 3,
    media: { mimeType: 'audio/ogg; codecs=opus', fileName: '', fileSize: 5120 },
  }),
  message('a disappearing voice note', { ephemeralMessage: { message: { audioMessage: voice } } }, 'audioMessage', 'voice', '', { durationS: 3 }),
  message('a view-once voice note', { viewOnceMessageV2Extension: { message: { audioMessage: { ...voice, viewOnce: true } } } }, 'audioMessage', 'voice', '', {
    durationS: 3,
  }),
  message('a voice note replying to a message', { audioMessage: { ...voice, contextInfo: { stanzaId: 'IN8' } } }, 'audioMessage', 'voice', '', {
    quotedExternalId: 'IN8',
  }),
  message('an audio file', { audioMessage: { ...voice, mimetype: 'audio/mpeg', ptt: false, seconds: 185 } }, 'audioMessage', 'audio', '', {
    durationS: 185,
    media: { mimeType: 'audio/mpeg' },
  }),
  message('a sticker', { stickerMessage: { mimetype: 'image/webp', mediaKey: MEDIA_KEY, directPath: '/v/7.enc' } }, 'stickerMessage', 'sticker', '', {
    media: { mimeType: 'image/webp', fileName: '' },
  }),
  message('a sticker of no stated type', { stickerMessage: { mediaKey: MEDIA_KEY, directPath: '/v/7.enc' } }, 'stickerMessage', 'sticker', '', {
    media: { mimeType: 'image/webp' },
  }),
  message(
    'a place',
    {
      locationMessage: {
        degreesLatitude: 52.520008,
        degreesLongitude: 13.404954,
        name: 'Office',
        address: 'Unter den Linden 1, Berlin',
        url: 'https://maps.example/o',
      },
    },
    'locationMessage',
    'location',
    'Office, Unter den Linden 1, Berlin (52.520008, 13.404954)\nhttps://maps.example/o',
    {
      details: {
        location: { latitude: 52.520008, longitude: 13.404954, name: 'Office', address: 'Unter den Linden 1, Berlin', url: 'https://maps.example/o' },
      },
    },
  ),
  message(
    'a live location (its first position)',
    { liveLocationMessage: { degreesLatitude: -33.8688, degreesLongitude: 151.2093, caption: 'on my way', sequenceNumber: 1 } },
    'liveLocationMessage',
    'location',
    'Location (-33.8688, 151.2093)',
    { details: { location: { latitude: -33.8688, longitude: 151.2093, name: '', address: '', url: '' } } },
  ),
  message('a contact card', { contactMessage: { displayName: 'Bob', vcard: bobCard } }, 'contactMessage', 'contacts', 'Bob: +4915112345678', {
    details: { contacts: [{ name: 'Bob', phones: ['4915112345678'], vcard: bobCard }] },
  }),
  message(
    'contact cards (a name from the vCard when none is displayed)',
    { contactsArrayMessage: { displayName: '2 contacts', contacts: [{ displayName: 'Bob', vcard }, { vcard: adaCard }] } },
    'contactsArrayMessage',
    'contacts',
    'Bob\nAda: +442079460000, +15550001234',
    {
      details: {
        contacts: [
          { name: 'Bob', phones: [], vcard },
          { name: 'Ada', phones: ['442079460000', '15550001234'], vcard: adaCard },
        ],
      },
    },
  ),
  message(
    'a poll (one answer)',
    { pollCreationMessageV3: poll, messageContextInfo: contextInfo },
    'pollCreationMessageV3',
    'poll',
    'Poll: Lunch?\n- yes\n- no',
    {
      details: { poll: { question: 'Lunch?', options: ['yes', 'no'], multiple: false } },
    },
  ),
  message(
    'a poll of the first version (any number of answers)',
    { pollCreationMessage: { ...poll, selectableOptionsCount: 0 } },
    'pollCreationMessage',
    'poll',
    'Poll: Lunch? (several answers allowed)\n- yes\n- no',
    { details: { poll: { question: 'Lunch?', options: ['yes', 'no'], multiple: true } } },
  ),
  message(
    'a poll V2 (two of three)',
    { pollCreationMessageV2: { name: 'Pick', options: [{ optionName: 'a' }, { optionName: 'b' }, { optionName: 'c' }], selectableOptionsCount: 2 } },
    'pollCreationMessageV2',
    'poll',
    'Poll: Pick (several answers allowed)\n- a\n- b\n- c',
    {
      details: { poll: { question: 'Pick', options: ['a', 'b', 'c'], multiple: true } },
    },
  ),
  message('a call log', { callLogMesssage: { isVideo: false, callOutcome: 1, durationSecs: 42 } }, 'callLogMesssage', 'unsupported', '[a call]'),
  message('a broadcast call', { bcallMessage: { sessionId: 'c1', mediaType: 1 } }, 'bcallMessage', 'unsupported', '[a call]'),
  message('a call (without "Message" in its field name)', { call: { callKey: Buffer.alloc(4, 1) } }, 'call', 'unsupported', '[a call]'),
  message(
    'an event',
    { eventMessage: { name: 'Launch party', startTime: 1764000000 }, messageContextInfo: contextInfo },
    'eventMessage',
    'unsupported',
    '[an event]',
  ),
  message('an order', { orderMessage: { orderId: 'O1', itemCount: 2 } }, 'orderMessage', 'unsupported', '[an order]'),
  message('a product', { productMessage: { product: { productId: 'P1', title: 'Mug' } } }, 'productMessage', 'unsupported', '[a product]'),
  message('a payment', { sendPaymentMessage: { noteMessage: { conversation: 'rent' } } }, 'sendPaymentMessage', 'unsupported', '[a payment]'),
  message(
    'a group invite',
    { groupInviteMessage: { groupJid: GROUP, inviteCode: 'abc', groupName: 'Team' } },
    'groupInviteMessage',
    'unsupported',
    '[a group invite]',
  ),
  message('a list', { listMessage: { title: 'Menu', buttonText: 'Open' } }, 'listMessage', 'unsupported', '[a list]'),
  message('buttons', { buttonsMessage: { contentText: 'Pick one' } }, 'buttonsMessage', 'unsupported', '[buttons]'),
  message('an unknown kind of content', { richResponseMessage: {} }, 'richResponseMessage', 'unsupported', '[a message this app cannot show]'),
];
