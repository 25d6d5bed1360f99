import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { randomPhone } from '../support/inbox-factories.js';
import { MP3, mp4, mp4Claiming, oggOpus, oggOpusClaiming, oggVorbis, PNG, webp } from '../support/media-fixtures.js';
import { b64, type SendChat, type SendKinds, startSendKinds } from './send-kinds-support.js';

/**
 * Every file kind a send may create, through the API and the scan channel's gateway (its sessions
 * recorded): what reaches the channel, what is stored, and what is refused with nothing stored.
 * The real driver and the simulated contact are test/chat/scan-send-kinds.spec.ts's.
 */
describe('sending files of every kind', () => {
  let k: SendKinds;
  let s: SendKinds['s'];
  let hosted: SendKinds['hosted'];
  let filesUrl: SendKinds['filesUrl'];

  beforeAll(async () => {
    k = await startSendKinds();
    ({ s, hosted, filesUrl } = k);
  });
  afterAll(async () => {
    await k?.close();
  });

  const chat = (group?: boolean): Promise<SendChat> => k.chat(group);
  const send = (c: SendChat, body: object) => k.send(c, body);
  const sentBy = (ws: string) => k.sentBy(ws);
  const outbound = (ws: string) => k.outbound(ws);
  const stored = (id: string) => k.stored(id);
  const sent = (id: string) => k.sent(id);
  const post = (key: string, path: string, body: object) => k.post(key, path, body);

  it('sends a video, an audio file, a voice note and a sticker as bytes, with their playing time', async () => {
    const c = await chat();
    const video = mp4(9);
    const audio = oggOpus(4);
    const voice = oggOpus(3);
    const sticker = webp(true);
    const res = [
      await send(c, { type: 'video', caption: 'the tour', media: { data_base64: b64(video), mime_type: 'video/mp4' } }),
      await send(c, { type: 'audio', media: { data_base64: b64(audio), mime_type: 'audio/ogg' } }),
      await send(c, { type: 'voice', media: { data_base64: b64(voice), mime_type: 'audio/ogg; codecs=opus' } }),
      await send(c, { type: 'sticker', media: { data_base64: b64(sticker), mime_type: 'image/webp' } }),
    ];
    expect(res.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(res.map((r) => [r.body.kind, r.body.message_type, r.body.duration_s, r.body.mime_type, r.body.file_size])).toEqual([
      ['video', 'document', 9, 'video/mp4', video.length],
      ['audio', 'document', 4, 'audio/ogg', audio.length],
      ['voice', 'document', 3, 'audio/ogg; codecs=opus', voice.length],
      ['sticker', 'image', 0, 'image/webp', sticker.length],
    ]);
    expect(res[0]!.body.content).toBe('the tour');
    for (const r of res) await sent(r.body.id);
    const [videoId, audioId, voiceId, stickerId] = res.map((r) => waMessageId(r.body.id));
    expect(sentBy(c.ws)).toEqual([
      { type: 'video', data: video, mimeType: 'video/mp4', fileName: '', caption: 'the tour', durationS: 9, messageId: videoId },
      { type: 'audio', data: audio, mimeType: 'audio/ogg', fileName: '', caption: '', durationS: 4, messageId: audioId },
      { type: 'voice', data: voice, mimeType: 'audio/ogg; codecs=opus', fileName: '', caption: '', durationS: 3, messageId: voiceId },
      { type: 'sticker', data: sticker, mimeType: 'image/webp', fileName: '', caption: '', messageId: stickerId },
    ]);
    expect(await stored(res[2]!.body.id)).toMatchObject({ message_type: 'voice', duration_s: 3, status: 'sent' });
  });

  it('fetches a voice note from a url and checks the bytes it got, as uploaded ones', async () => {
    const c = await chat();
    const voice = oggOpus(5);
    hosted.set('/note.ogg', { type: 'audio/ogg', data: voice });
    hosted.set('/fake.ogg', { type: 'audio/ogg', data: MP3 });
    const ok = await send(c, { type: 'voice', media: { url: `${filesUrl}/note.ogg` } });
    expect([ok.status, ok.body.duration_s, ok.body.mime_type, ok.body.file_size]).toEqual([201, 5, 'audio/ogg; codecs=opus', voice.length]);
    const bad = await send(c, { type: 'voice', media: { url: `${filesUrl}/fake.ogg` } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'a voice note must be audio/ogg with the Opus codec' }]);
    expect(await outbound(c.ws)).toBe(1);
    expect(await sent(ok.body.id)).toMatchObject({ status: 'sent' });
    expect(sentBy(c.ws)).toHaveLength(1);
  });

  it('sends a file whose header claims an absurd playing time, its duration capped at the largest the row holds', async () => {
    const c = await chat();
    const max = 2_147_483_647;
    // A version 0 MP4 of 0xFFFFFFFF seconds (timescale 1), a version 1 one of 2^40, an Ogg granule near 2^62.
    const v0 = mp4Claiming(0xffffffffn, 1);
    const v1 = mp4Claiming(2n ** 40n, 1, 1);
    const ogg = oggOpusClaiming(2n ** 62n);
    const res = [
      await send(c, { type: 'video', media: { data_base64: b64(v0), mime_type: 'video/mp4' } }),
      await send(c, { type: 'video', media: { data_base64: b64(v1), mime_type: 'video/mp4' } }),
      await send(c, { type: 'voice', media: { data_base64: b64(ogg), mime_type: 'audio/ogg' } }),
      await send(c, { type: 'audio', media: { data_base64: b64(ogg), mime_type: 'audio/ogg' } }),
    ];
    expect(res.map((r) => [r.status, r.body.duration_s])).toEqual([
      [201, max],
      [201, max],
      [201, max],
      [201, max],
    ]);
    // Fetched from a url: checked once the channel got the bytes, the same cap.
    hosted.set('/forever.mp4', { type: 'video/mp4', data: v0 });
    const fetched = await send(c, { type: 'video', media: { url: `${filesUrl}/forever.mp4` } });
    expect([fetched.status, fetched.body.duration_s]).toEqual([201, max]);
    for (const r of res) await sent(r.body.id);
    expect(await sent(fetched.body.id)).toMatchObject({ duration_s: max, status: 'sent' });
    expect(sentBy(c.ws).map((o) => ('durationS' in o ? o.durationS : null))).toEqual([max, max, max, max, max]);
  });

  it('refuses a wrong file or a too large one with 400, storing and sending nothing', async () => {
    const c = await chat();
    const cases: [object, string][] = [
      [{ type: 'voice', media: { data_base64: b64(MP3), mime_type: 'audio/mpeg' } }, 'a voice note must be audio/ogg with the Opus codec'],
      [{ type: 'voice', media: { data_base64: b64(MP3), mime_type: 'audio/ogg' } }, 'a voice note must be audio/ogg with the Opus codec'],
      [{ type: 'voice', media: { data_base64: b64(oggVorbis()), mime_type: 'audio/ogg' } }, 'a voice note must be audio/ogg with the Opus codec'],
      [{ type: 'voice', media: { data_base64: b64(oggOpus(1)), mime_type: 'audio/ogg; codecs=vorbis' } }, 'a voice note must be audio/ogg with the Opus codec'],
      [{ type: 'sticker', media: { data_base64: b64(PNG), mime_type: 'image/webp' } }, 'a sticker must be a WebP image (image/webp)'],
      [{ type: 'sticker', media: { data_base64: b64(webp()), mime_type: 'image/png' } }, 'a sticker must be a WebP image (image/webp)'],
      [
        { type: 'sticker', media: { data_base64: b64(webp(false, 600 * 1024)), mime_type: 'image/webp' } },
        'media is larger than 512000 bytes (500 KB, the limit for a sticker)',
      ],
      [{ type: 'video', media: { data_base64: b64(PNG), mime_type: 'image/png' } }, 'a video needs a video/* mime_type'],
      [{ type: 'audio' }, 'media is required for audio messages'],
    ];
    for (const [body, error] of cases) {
      const res = await send(c, body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error });
    }
    expect(sentBy(c.ws)).toEqual([]);
    expect(await outbound(c.ws)).toBe(0);
  });

  it('starts a conversation with a location or a voice note, as a first message', async () => {
    const { workspace, key } = await s.t.factories.workspaceWithOwner();
    s.sessions.connected.add(workspace.id);
    const phone = randomPhone();
    const voice = oggOpus(2);
    const first = await post(key, '/api/conversations', { phone, type: 'voice', media: { data_base64: b64(voice), mime_type: 'audio/ogg' } });
    expect(first.status).toBe(201);
    expect(first.body.message).toMatchObject({ kind: 'voice', duration_s: 2, direction: 'outbound', status: 'pending' });
    expect(await sent(first.body.message.id)).toMatchObject({ message_type: 'voice', status: 'sent' });
    const place = await post(key, '/api/conversations', { phone, type: 'location', location: { latitude: 1.5, longitude: -2.25 } });
    expect([place.status, place.body.message.content, place.body.conversation.id]).toEqual([201, 'Location (1.5, -2.25)', first.body.conversation.id]);
    const bad = await post(key, '/api/conversations', { phone: randomPhone(), type: 'sticker', media: { data_base64: b64(PNG), mime_type: 'image/webp' } });
    expect([bad.status, bad.body.error]).toEqual([400, 'a sticker must be a WebP image (image/webp)']);
    expect(await s.t.dataSource.query('SELECT id FROM conversations WHERE workspace_id = $1', [workspace.id])).toHaveLength(1);
    expect(await sent(place.body.message.id)).toMatchObject({ status: 'sent' });
    expect(sentBy(workspace.id).map((o) => o.type)).toEqual(['voice', 'location']);
  });
});
