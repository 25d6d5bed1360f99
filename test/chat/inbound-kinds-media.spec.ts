import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mp4, oggOpus } from '../support/media-fixtures.js';
import type { MediaInput } from '../whatsapp-sim/whatsapp-simulator.js';
import { text } from '../whatsapp-sim/content-messages.js';
import { apiMessage, fetchMedia, type Json, type KindsSession, linkedKindsSession, storedRow, webhookFor } from './inbound-kinds-support.js';

/**
 * Every kind of file a contact sends (issue 36), end to end through the real Baileys driver and
 * the simulator: stored with its kind and the contract's coarse `message_type`, its playing time,
 * downloaded from the simulator's media host (each kind's own keys) and served with its bytes and
 * type, view-once and disappearing wrappers included, with a `scan.chat` that waited for the file.
 */
jest.setTimeout(60_000);

const PHONE = '15550100361';
const OGG = Buffer.concat([Buffer.from('OggS'), randomBytes(3000)]);
const MP3 = Buffer.concat([Buffer.from('ID3'), randomBytes(5000)]);
const MP4 = Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), randomBytes(9000)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0x27, 0, 0]), Buffer.from('WEBPVP8L'), randomBytes(800)]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(2000)]);
// Real headers, read when the message gives no playing time.
const VOICE_OGG = oggOpus(6);
const CLIP_MP4 = mp4(11);

interface MediaCase {
  name: string;
  input: MediaInput;
  /** What the API and the webhook both show (beside media_url and file_size, checked for every case). */
  expected: { kind: string; message_type: string; content: string; duration_s: number; mime_type: string; file_name: string };
  /** The Content-Type the file is served with. */
  served: string;
}

const CASES: MediaCase[] = [
  {
    name: 'a voice note (push-to-talk audio)',
    input: { kind: 'audio', ptt: true, seconds: 7, data: OGG },
    expected: { kind: 'voice', message_type: 'document', content: '', duration_s: 7, mime_type: 'audio/ogg; codecs=opus', file_name: '' },
    served: 'audio/ogg',
  },
  {
    name: 'an audio file',
    input: { kind: 'audio', mimetype: 'audio/mpeg', seconds: 185, data: MP3 },
    expected: { kind: 'audio', message_type: 'document', content: '', duration_s: 185, mime_type: 'audio/mpeg', file_name: '' },
    served: 'audio/mpeg',
  },
  {
    name: 'a video without caption',
    input: { kind: 'video', seconds: 12, data: MP4 },
    expected: { kind: 'video', message_type: 'document', content: '', duration_s: 12, mime_type: 'video/mp4', file_name: '' },
    served: 'video/mp4',
  },
  {
    name: 'a GIF with a caption (a video played as a loop)',
    input: { kind: 'video', seconds: 3, gifPlayback: true, caption: 'so true', data: MP4 },
    expected: { kind: 'video', message_type: 'document', content: 'so true', duration_s: 3, mime_type: 'video/mp4', file_name: '' },
    served: 'video/mp4',
  },
  {
    name: 'a sticker',
    input: { kind: 'sticker', data: WEBP },
    expected: { kind: 'sticker', message_type: 'image', content: '', duration_s: 0, mime_type: 'image/webp', file_name: '' },
    served: 'image/webp',
  },
  {
    name: 'a view-once image',
    input: { kind: 'image', mimetype: 'image/png', caption: 'only once', wrap: 'viewOnceV2', data: PNG },
    expected: { kind: 'image', message_type: 'image', content: 'only once', duration_s: 0, mime_type: 'image/png', file_name: '' },
    served: 'image/png',
  },
  {
    name: 'a view-once video',
    input: { kind: 'video', seconds: 4, wrap: 'viewOnce', data: MP4 },
    expected: { kind: 'video', message_type: 'document', content: '', duration_s: 4, mime_type: 'video/mp4', file_name: '' },
    served: 'video/mp4',
  },
  {
    name: 'a view-once voice note',
    input: { kind: 'audio', ptt: true, seconds: 2, wrap: 'viewOnceV2Extension', data: OGG },
    expected: { kind: 'voice', message_type: 'document', content: '', duration_s: 2, mime_type: 'audio/ogg; codecs=opus', file_name: '' },
    served: 'audio/ogg',
  },
  {
    name: 'a voice note in a disappearing chat',
    input: { kind: 'audio', ptt: true, seconds: 9, wrap: 'ephemeral', data: OGG },
    expected: { kind: 'voice', message_type: 'document', content: '', duration_s: 9, mime_type: 'audio/ogg; codecs=opus', file_name: '' },
    served: 'audio/ogg',
  },
  {
    // Not every client says how long a file plays: the downloaded file tells.
    name: 'a voice note without its seconds',
    input: { kind: 'audio', ptt: true, data: VOICE_OGG },
    expected: { kind: 'voice', message_type: 'document', content: '', duration_s: 6, mime_type: 'audio/ogg; codecs=opus', file_name: '' },
    served: 'audio/ogg',
  },
  {
    name: 'a video without its seconds',
    input: { kind: 'video', data: CLIP_MP4 },
    expected: { kind: 'video', message_type: 'document', content: '', duration_s: 11, mime_type: 'video/mp4', file_name: '' },
    served: 'video/mp4',
  },
];

describe('scan inbound kinds end to end: files', () => {
  let s: KindsSession;

  // Linking costs seconds of curve math (812 pre-keys): on a loaded machine, more than a test's minute.
  beforeAll(async () => {
    s = await linkedKindsSession(PHONE);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(CASES)('$name: stored with its kind and duration, its file downloaded and served, scan.chat after the file', async ({ input, expected, served }) => {
    const from = `49151036${Math.floor(Math.random() * 1e5)}`;
    const id = await s.sim.deliverMedia({ to: PHONE, from, name: 'Vera', ...input });

    const message = await apiMessage(s, id, true);
    const bytes = input.data!;
    expect(message).toMatchObject({ direction: 'inbound', ...expected, file_size: bytes.length, quoted_message_id: '', location: null, poll: null });
    const file = await fetchMedia(s, String(message.media_url));
    expect([file.status, file.headers['content-type']]).toEqual([200, served]);
    expect((file.body as Buffer).equals(bytes)).toBe(true);
    expect(await storedRow(s, id)).toMatchObject({ message_type: expected.kind, duration_s: expected.duration_s });

    const event = await webhookFor(s, id);
    expect(event).toMatchObject({ event: 'message.inbound', ...expected, media_url: message.media_url, file_size: bytes.length });
  });

  it('a voice note replying to a stored message keeps the quote, and links it', async () => {
    const from = '4915103600001';
    const question = await s.sim.deliverMessage({ to: PHONE, from, name: 'Quinn', message: text('can you hear me?') });
    const stored = await apiMessage(s, question);
    const id = await s.sim.deliverMedia({
      to: PHONE,
      from,
      kind: 'audio',
      ptt: true,
      seconds: 5,
      data: OGG,
      contextInfo: { stanzaId: question, participant: `${from}@s.whatsapp.net`, quotedMessage: { conversation: 'can you hear me?' } },
    });
    const reply: Json = await apiMessage(s, id, true);
    expect(reply).toMatchObject({ kind: 'voice', duration_s: 5, quoted_message_id: question, quoted_id: stored.id });
    expect(await webhookFor(s, id)).toMatchObject({ kind: 'voice', quoted_message_id: question });
  });
});
