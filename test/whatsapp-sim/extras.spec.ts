import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { downloadContentFromMessage, type MediaType, toBuffer } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import { BaileysClient, simMediaTrust, textOf } from './baileys-client.js';
import { startHttpControl } from './http-control.js';
import { linkClient } from './link.js';
import { WhatsAppSimulator } from './whatsapp-simulator.js';

const PHONE = '15550004444';

describe('simulator: media, history sync and the HTTP control API', () => {
  let sim: WhatsAppSimulator;
  let client: BaileysClient;
  let control: Awaited<ReturnType<typeof startHttpControl>>;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    sim.setInitialHistory(PHONE, [{ contact: '4915100000020', name: 'Carol', messages: [{ text: 'old question' }, { text: 'old answer', fromMe: true }] }]);
    ({ client } = await linkClient(sim, PHONE));
    control = await startHttpControl(sim);
  });
  afterAll(async () => {
    client.stop();
    control.server.close();
    await sim.stop();
  });

  const post = async (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${control.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('gives a new device the initial history the phone holds', async () => {
    const batch = client.histories.find((h) => h.messages.length > 0) ?? (await client.next('history', (h) => h.messages.length > 0))[0];
    expect(batch.messages.map(textOf)).toEqual(['old question', 'old answer']);
    expect(batch.messages.map((m) => m.key.fromMe)).toEqual([false, true]);
    expect(batch.chats.map((c) => c.id)).toEqual(['4915100000020@s.whatsapp.net']);
  });

  it('pushes a later history batch', async () => {
    const next = client.next('history', (h) => h.messages.some((m) => textOf(m) === 'from the archive'));
    await sim.pushHistory(PHONE, [{ contact: '4915100000021', messages: [{ text: 'from the archive' }] }]);
    const [batch] = await next;
    expect(batch.chats.map((c) => c.id)).toEqual(['4915100000021@s.whatsapp.net']);
  });

  it("reports the phone's progress of the initial sync with a batch", async () => {
    const next = client.next('history', (h) => h.messages.some((m) => textOf(m) === 'half way'));
    await sim.pushHistory(PHONE, [{ contact: '4915100000024', messages: [{ text: 'half way' }] }], { progress: 40 });
    const [batch] = await next;
    expect(batch.progress).toBe(40);
  });

  it('delivers an image and a document whose bytes Baileys downloads from the media host and decrypts', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(3000)]);
    const pdf = Buffer.from(`%PDF-1.7 ${randomBytes(40_000).toString('hex')} %%EOF`);
    const imageId = await sim.deliverMedia({ to: PHONE, from: '4915100000022', kind: 'image', mimetype: 'image/png', caption: 'look', data: png });
    const docId = await sim.deliverMedia({
      to: PHONE,
      from: '4915100000022',
      kind: 'document',
      mimetype: 'application/pdf',
      fileName: 'invoice.pdf',
      data: pdf,
    });
    const image = (await client.message((m) => m.key.id === imageId)).message!.imageMessage!;
    const doc = (await client.message((m) => m.key.id === docId)).message!.documentMessage!;
    expect(image).toMatchObject({ caption: 'look', mimetype: 'image/png' });
    expect(doc).toMatchObject({ fileName: 'invoice.pdf', mimetype: 'application/pdf' });
    expect(image.url).toMatch(new RegExp(`^https://${sim.media.hostname}/v/`));

    const download = async (content: typeof image | typeof doc, kind: 'image' | 'document'): Promise<Buffer> =>
      toBuffer(await downloadContentFromMessage(content, kind, { options: simMediaTrust.options }));
    expect((await download(image, 'image')).equals(png)).toBe(true);
    expect((await download(doc, 'document')).equals(pdf)).toBe(true);
    // Without the test CA the media host is not trusted: TLS checks are on.
    const refused = await downloadContentFromMessage(image, 'image').then(
      () => undefined,
      (error: Error) => error,
    );
    expect((refused?.cause as { code?: string } | undefined)?.code).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it("delivers a voice note, a video, a sticker and a view-once image, each encrypted with its kind's keys as Baileys derives them", async () => {
    const from = '4915100000026';
    const ogg = Buffer.concat([Buffer.from('OggS'), randomBytes(1500)]);
    const mp4 = randomBytes(4000);
    const voiceId = await sim.deliverMedia({ to: PHONE, from, kind: 'audio', ptt: true, seconds: 4, data: ogg });
    const videoId = await sim.deliverMedia({ to: PHONE, from, kind: 'video', seconds: 9, caption: 'watch', data: mp4 });
    const stickerId = await sim.deliverMedia({ to: PHONE, from, kind: 'sticker' });
    const onceId = await sim.deliverMedia({ to: PHONE, from, kind: 'image', wrap: 'viewOnceV2' });

    const voice = (await client.message((m) => m.key.id === voiceId)).message!.audioMessage!;
    expect(voice).toMatchObject({ ptt: true, seconds: 4, mimetype: 'audio/ogg; codecs=opus' });
    const video = (await client.message((m) => m.key.id === videoId)).message!.videoMessage!;
    expect(video).toMatchObject({ seconds: 9, caption: 'watch', mimetype: 'video/mp4' });
    const sticker = (await client.message((m) => m.key.id === stickerId)).message!.stickerMessage!;
    expect(sticker.mimetype).toBe('image/webp');
    const once = (await client.message((m) => m.key.id === onceId)).message!.viewOnceMessageV2!.message!.imageMessage!;
    expect(once.viewOnce).toBe(true);

    const download = async (content: { mediaKey?: Uint8Array | null; directPath?: string | null; url?: string | null }, type: MediaType) =>
      toBuffer(await downloadContentFromMessage(content, type, { options: simMediaTrust.options }));
    // A voice note's file has the Audio keys, whether Baileys asks for `ptt` or `audio`.
    expect((await download(voice, 'ptt')).equals(ogg)).toBe(true);
    expect((await download(voice, 'audio')).equals(ogg)).toBe(true);
    expect((await download(video, 'video')).equals(mp4)).toBe(true);
    expect((await download(sticker, 'sticker')).subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect((await download(once, 'image')).subarray(1, 4).toString('latin1')).toBe('PNG');
    // The wrong kind's keys fail the MAC: each kind really has its own.
    await expect(download(video, 'image')).rejects.toThrow();
  });

  it('takes the media Baileys uploads when it sends an image or a document, and decrypts it', async () => {
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(2048)]);
    const sentImage = await client.sock!.sendMessage('4915100000025@s.whatsapp.net', { image: png, mimetype: 'image/png', caption: 'from the device' });
    const image = await sim.waitForSent((m) => m.id === sentImage?.key.id);
    expect(image.error).toBeUndefined();
    expect(image.media).toMatchObject({ kind: 'image', mimetype: 'image/png', caption: 'from the device' });
    expect(image.media!.data.equals(png)).toBe(true);

    const csv = Buffer.from('id;name\n1;Ann\n2;Ben\n');
    const sentDoc = await client.sock!.sendMessage('4915100000025@s.whatsapp.net', { document: csv, mimetype: 'text/csv', fileName: 'people.csv' });
    const doc = await sim.waitForSent((m) => m.id === sentDoc?.key.id);
    expect(doc.media).toMatchObject({ kind: 'document', mimetype: 'text/csv', fileName: 'people.csv' });
    expect(doc.media!.data.equals(csv)).toBe(true);
  });

  it('drives the same world over HTTP: deliver, read what was sent, refuse bad input with 400', async () => {
    const delivered = await post('/messages', { to: PHONE, from: '4915100000023', text: 'over http', name: 'Dan' });
    expect(delivered.status).toBe(200);
    const message = await client.message((m) => m.key.id === delivered.body.id);
    expect(textOf(message)).toBe('over http');

    const sentKey = (await client.sock!.sendMessage('4915100000023@s.whatsapp.net', { text: 'answer over http' }))?.key;
    await sim.waitForSent((m) => m.id === sentKey?.id);
    const sent = (await (await fetch(`${control.url}/sent?phone=${PHONE}`)).json()) as { messages: { id: string; text?: string }[] };
    expect(sent.messages.find((m) => m.id === sentKey?.id)?.text).toBe('answer over http');

    const status = (await (await fetch(`${control.url}/status`)).json()) as { accounts: { phone: string; online: boolean }[] };
    expect(status.accounts).toEqual([expect.objectContaining({ phone: PHONE, online: true })]);

    // The contact reinstalls WhatsApp: its next message comes on a new session, still decrypted.
    expect(await post('/rekey', { contact: '4915100000023', new_identity: true })).toEqual({ status: 200, body: { ok: true } });
    const rekeyed = await post('/messages', { to: PHONE, from: '4915100000023', text: 'after reinstalling' });
    expect(textOf(await client.message((m) => m.key.id === rekeyed.body.id))).toBe('after reinstalling');

    expect(await post('/rekey', { new_identity: true })).toEqual({ status: 400, body: { error: 'contact must be a non-empty string' } });
    expect(await post('/messages', { to: PHONE, text: 'no sender' })).toEqual({ status: 400, body: { error: 'from must be a non-empty string' } });
    expect(await post('/receipts', { id: 'x', type: 'seen' })).toEqual({ status: 400, body: { error: 'type must be delivered or read' } });
    expect(await post('/scan', { qr: 'x', phone: PHONE, restart_after_ms: -1 })).toEqual({
      status: 400,
      body: { error: 'restart_after_ms must be between 0 and 600000' },
    });
    expect(await post('/scan', { qr: 'x', phone: PHONE, restart_after_ms: 'soon' })).toEqual({
      status: 400,
      body: { error: 'restart_after_ms must be an integer' },
    });
    // Every file kind, and any content as proto JSON.
    const voice = await post('/media', { to: PHONE, from: '4915100000023', kind: 'audio', ptt: true, seconds: 3, wrap: 'ephemeral' });
    expect(voice.status).toBe(200);
    const note = (await client.message((m) => m.key.id === voice.body.id)).message!.ephemeralMessage!.message!.audioMessage!;
    expect(note).toMatchObject({ ptt: true, seconds: 3, mimetype: 'audio/ogg; codecs=opus' });
    const place = await post('/content', {
      to: PHONE,
      from: '4915100000023',
      message: { locationMessage: { degreesLatitude: 52.5, degreesLongitude: 13.4, name: 'Here' } },
    });
    expect(place.status).toBe(200);
    expect((await client.message((m) => m.key.id === place.body.id)).message!.locationMessage).toMatchObject({ degreesLatitude: 52.5, name: 'Here' });
    expect(await post('/media', { to: PHONE, from: '4915100000023', kind: 'gif' })).toEqual({
      status: 400,
      body: { error: 'kind must be one of image, document, video, audio, sticker' },
    });
    expect(await post('/media', { to: PHONE, from: '4915100000023', kind: 'image', wrap: 'forever' })).toEqual({
      status: 400,
      body: { error: 'wrap must be one of viewOnce, viewOnceV2, viewOnceV2Extension, ephemeral' },
    });
    expect(await post('/content', { to: PHONE, from: '4915100000023', message: 'hi' })).toEqual({
      status: 400,
      body: { error: 'message must be an object (proto.Message JSON)' },
    });
    expect((await post('/nowhere', {})).status).toBe(404);
  });
});
