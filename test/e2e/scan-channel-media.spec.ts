import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { api, createE2eApp, link, messageWhen, newWorkspace, sentMessage, type E2eWorkspace, type Json } from './e2e-support.js';

/**
 * Media end to end (issue 12): the simulator hosts encrypted files over HTTPS as WhatsApp's media
 * servers do; the service trusts its test CA (WA_MEDIA_CA_FILE) and nothing else changes.
 */
jest.setTimeout(60_000);

const PHONE = '15550100005';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(6000)]);
const PDF = Buffer.from(`%PDF-1.7\n${randomBytes(30_000).toString('base64')}\n%%EOF\n`);

describe('scan channel end to end: media', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;
  let mediaDir: string;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    mediaDir = await mkdtemp(join(tmpdir(), 'e2e-media-'));
    t = await createE2eApp(sim, { env: { MEDIA_DIR: mediaDir } });
    ws = await newWorkspace(t);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
    if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
  });

  /** The file behind a message's media_url, as a client fetches it. */
  const fetchMedia = (url: string) =>
    t
      .http()
      .get(url)
      .set('Authorization', `Bearer ${ws.key}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const withMedia = (m: Json): boolean => typeof m.media_url === 'string' && m.media_url !== '';

  it('an image and a document from a contact are downloaded by the media job and served with their exact bytes', async () => {
    const from = '4915100500001';
    const imageId = await sim.deliverMedia({ to: PHONE, from, name: 'Ines', kind: 'image', mimetype: 'image/png', caption: 'the plan', data: PNG });
    const docId = await sim.deliverMedia({ to: PHONE, from, kind: 'document', mimetype: 'application/pdf', fileName: 'Rechnung März.pdf', data: PDF });

    const image = await messageWhen(t, ws, imageId, withMedia);
    expect(image).toMatchObject({ direction: 'inbound', message_type: 'image', content: 'the plan', mime_type: 'image/png' });
    const imageFile = await fetchMedia(String(image.media_url));
    expect(imageFile.status).toBe(200);
    expect(imageFile.headers['content-type']).toBe('image/png');
    expect((imageFile.body as Buffer).equals(PNG)).toBe(true);

    const doc = await messageWhen(t, ws, docId, withMedia);
    expect(doc).toMatchObject({ message_type: 'document', file_name: 'Rechnung März.pdf', mime_type: 'application/pdf', file_size: PDF.length });
    const docFile = await fetchMedia(String(doc.media_url));
    expect([docFile.status, docFile.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect(docFile.headers['content-disposition']).toContain("filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf");
    expect((docFile.body as Buffer).equals(PDF)).toBe(true);
  });

  it('an image and a document sent from the inbox are uploaded, and the contact downloads and decrypts them', async () => {
    const from = '4915100500002';
    const first = await sim.deliverText({ to: PHONE, from, name: 'Olaf', text: 'send me the files' });
    const conversationId = String((await messageWhen(t, ws, first)).conversation_id);
    await sim.waitForLive(PHONE);

    const sentImage = await api(t, ws, 'post', `/api/conversations/${conversationId}/messages`, {
      type: 'image',
      media: { data_base64: PNG.toString('base64'), mime_type: 'image/png' },
      caption: 'here it is',
    });
    expect(sentImage.status).toBe(201);
    const queuedImage = await sentMessage(t, ws, conversationId, String((sentImage.body as Json).id));
    expect(queuedImage).toMatchObject({ status: 'sent' });
    const image = await sim.waitForSent((m) => m.id === queuedImage.chat_message_id);
    expect(image.error).toBeUndefined();
    expect(image).toMatchObject({ contact: from, media: { kind: 'image', mimetype: 'image/png', caption: 'here it is' } });
    expect(image.media!.data.equals(PNG)).toBe(true);

    const sentDoc = await api(t, ws, 'post', `/api/conversations/${conversationId}/messages`, {
      type: 'document',
      media: { data_base64: PDF.toString('base64'), mime_type: 'application/pdf', file_name: 'offer.pdf' },
    });
    expect(sentDoc.status).toBe(201);
    const queuedDoc = await sentMessage(t, ws, conversationId, String((sentDoc.body as Json).id));
    expect(queuedDoc).toMatchObject({ status: 'sent' });
    const doc = await sim.waitForSent((m) => m.id === queuedDoc.chat_message_id);
    expect(doc.media).toMatchObject({ kind: 'document', mimetype: 'application/pdf', fileName: 'offer.pdf' });
    expect(doc.media!.data.equals(PDF)).toBe(true);

    // Our own copy (Baileys' echo of the send) is downloaded back from the media host too.
    const stored = await messageWhen(t, ws, doc.id, withMedia);
    expect(stored).toMatchObject({ direction: 'outbound', message_type: 'document' });
    expect(((await fetchMedia(String(stored.media_url))).body as Buffer).equals(PDF)).toBe(true);
  });

  it('an HTML "image" from a contact and an SVG image sent from the inbox are served as downloads of opaque bytes, sandboxed', async () => {
    const from = '4915100500003';
    const html = Buffer.from('<html><script>fetch("/api/keys",{method:"POST"})</script></html>');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const csp = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";
    const servedAsDownload = async (message: Json, bytes: Buffer): Promise<void> => {
      const url = String(message.media_url);
      const file = url.split('/').pop()!;
      const res = await fetchMedia(url);
      expect([
        res.status,
        res.headers['content-type'],
        res.headers['content-disposition'],
        res.headers['x-content-type-options'],
        res.headers['content-security-policy'],
      ]).toEqual([200, 'application/octet-stream', `attachment; filename="${file}"; filename*=UTF-8''${file}`, 'nosniff', csp]);
      expect((res.body as Buffer).equals(bytes)).toBe(true);
    };

    const inboundId = await sim.deliverMedia({ to: PHONE, from, name: 'Mallory', kind: 'image', mimetype: 'text/html', data: html });
    const inbound = await messageWhen(t, ws, inboundId, withMedia);
    expect(inbound).toMatchObject({ direction: 'inbound', message_type: 'image', mime_type: 'text/html' });
    await servedAsDownload(inbound, html);

    await sim.waitForLive(PHONE);
    const sent = await api(t, ws, 'post', `/api/conversations/${String(inbound.conversation_id)}/messages`, {
      type: 'image',
      media: { data_base64: svg.toString('base64'), mime_type: 'image/svg+xml' },
    });
    expect(sent.status).toBe(201);
    const queued = await sentMessage(t, ws, String(inbound.conversation_id), String((sent.body as Json).id));
    expect(queued).toMatchObject({ status: 'sent' });
    const delivered = await sim.waitForSent((m) => m.id === queued.chat_message_id);
    // Our own copy, downloaded back from the media host (Baileys' echo of the send).
    const echo = await messageWhen(t, ws, delivered.id, withMedia);
    expect(echo).toMatchObject({ direction: 'outbound', message_type: 'image', mime_type: 'image/svg+xml' });
    await servedAsDownload(echo, svg);
  });
});
