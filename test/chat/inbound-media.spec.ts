import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ScanMedia } from '../../src/modules/chat/driver/scan-driver.port.js';
import type { Job } from 'bullmq';
import { EncryptionService } from '../../src/infra/crypto/encryption.service.js';
import { MEDIA_REF_PURPOSE, MediaDownloadProcessor, type MediaDownloadJob } from '../../src/modules/chat/inbound/media-download.processor.js';
import { ScanInboundRepository } from '../../src/modules/chat/inbound/scan-inbound.repository.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { randomPhone } from '../support/inbox-factories.js';
import { createInboundTestApp, eventually, type InboundTestApp, scanMessage, storedMessage } from './inbound-support.js';

// The first bytes of a PNG and of a PDF: enough for a content type check, not for a decoder.
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('not really an image')]);
const PDF = Buffer.from('%PDF-1.4\n% a tiny document\n');
const CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

describe('scan inbound: media', () => {
  let s: InboundTestApp;
  let owned: Awaited<ReturnType<InboundTestApp['t']['factories']['workspaceWithOwner']>>;
  let imageUrl: string;
  let documentUrl: string;

  const media = (ref: string, bytes: Buffer, overrides: Partial<ScanMedia>): ScanMedia => {
    s.driver.media.set(ref, bytes);
    return { mimeType: 'image/png', fileName: '', fileSize: bytes.length, ref, ...overrides };
  };

  beforeAll(async () => {
    s = await createInboundTestApp();
    owned = await s.t.factories.workspaceWithOwner();
    const ws = owned.workspace.id;
    const image = scanMessage({ type: 'image', content: 'look at this', media: media(`ref-image-${ws}`, PNG, { mimeType: 'image/png' }) });
    const document = scanMessage({
      type: 'document',
      content: 'the invoice',
      media: media(`ref-doc-${ws}`, PDF, { mimeType: 'application/pdf', fileName: 'Rechnung März.pdf', fileSize: 0 }),
    });
    // The download worker held back while the messages are checked: stored at once, before any
    // download, without an address (a download job finishing first would make this a race).
    const downloads = s.t.app.get(MediaDownloadProcessor).worker;
    await downloads.pause();
    try {
      await s.handler.handle(ws, { type: 'messages', kind: 'notify', messages: [image, document] });
      expect(await storedMessage(s.t.dataSource, ws, image.externalId)).toMatchObject({
        message_type: 'image',
        content: 'look at this',
        media_url: '',
        mime_type: 'image/png',
        file_name: '',
      });
      expect(await storedMessage(s.t.dataSource, ws, document.externalId)).toMatchObject({
        message_type: 'document',
        media_url: '',
        file_name: 'Rechnung März.pdf',
      });
      expect(s.driver.downloads).toEqual([]);
    } finally {
      await downloads.resume();
    }

    const urlOf = async (externalId: string): Promise<string> =>
      eventually(`media_url of ${externalId}`, async () => ((await storedMessage(s.t.dataSource, ws, externalId))?.media_url as string) || null);
    imageUrl = await urlOf(image.externalId);
    documentUrl = await urlOf(document.externalId);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('downloads the media in a job and sets media_url to /api/media/<workspace>/<file> (and a missing size)', async () => {
    expect(imageUrl).toMatch(new RegExp(`^/api/media/${owned.workspace.id}/[a-f0-9]{32}\\.png$`));
    expect(documentUrl).toMatch(new RegExp(`^/api/media/${owned.workspace.id}/[a-f0-9]{32}\\.pdf$`));
    const [row]: { file_size: number }[] = await s.t.dataSource.query(`SELECT file_size FROM messages WHERE media_url = $1`, [documentUrl]);
    expect(row!.file_size).toBe(PDF.length);
    // The media key is kept only until the download: no reference is left behind.
    expect(await s.t.dataSource.query('SELECT * FROM scan_media_refs WHERE workspace_id = $1', [owned.workspace.id])).toEqual([]);
  });

  it('serves the file with its content type to a read key and to a signed-in member', async () => {
    const { key } = await s.t.factories.apiKey(owned.workspace.id, 'read');
    const res = await s.t.http().get(imageUrl).set('Authorization', `Bearer ${key}`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.from(res.body as Buffer)).toEqual(PNG);

    const agent = await s.t.factories.signedInMember(owned.workspace.id, 'agent');
    const doc = await s.t.http().get(documentUrl).set('Cookie', agent.cookie).set('X-Tenant-ID', owned.workspace.id).buffer(true);
    expect(doc.status).toBe(200);
    // Not an image, audio or video: a download, with its own type.
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.headers['content-disposition']).toBe(`attachment; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`);
    expect(Buffer.from(doc.body as Buffer)).toEqual(PDF);
  });

  it('stores the bytes under MEDIA_DIR/<workspace>/, never outside', async () => {
    const file = imageUrl.split('/').pop()!;
    expect(await readFile(join(s.mediaDir, owned.workspace.id, file))).toEqual(PNG);
    expect((await readdir(s.mediaDir)).sort()).toEqual([owned.workspace.id]);
  });

  it('answers 401 without credentials, and 404 for another workspace and for every malformed or traversing name', async () => {
    expect((await s.t.http().get(imageUrl)).status).toBe(401);
    const other = await s.t.factories.workspaceWithOwner();
    const file = imageUrl.split('/').pop()!;
    // The other workspace's key on our path: the path names a workspace that is not the caller's.
    const foreign = await s.t.http().get(imageUrl).set('Authorization', `Bearer ${other.key}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'media not found' });
    // Our file name under the other workspace's own path: not there.
    expect((await s.t.http().get(`/api/media/${other.workspace.id}/${file}`).set('Authorization', `Bearer ${other.key}`)).status).toBe(404);

    const ws = owned.workspace.id;
    const attempts = [
      `/api/media/${ws}/..%2F..%2Fetc%2Fpasswd`,
      `/api/media/${ws}/%2e%2e%2f${file}`,
      `/api/media/${ws}/%2e%2e`,
      `/api/media/${ws}/${file}%00.png`,
      `/api/media/${ws}/${file}.json`,
      `/api/media/${ws}/%2Fetc%2Fpasswd`,
      `/api/media/${ws}/..%5C..%5Cwindows`,
      `/api/media/${ws}/${file.toUpperCase()}`,
      `/api/media/..%2F${ws}/${file}`,
      `/api/media/not-a-uuid/${file}`,
    ];
    for (const path of attempts) {
      const res = await s.t.http().get(path).set('Authorization', `Bearer ${owned.key}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    // The sidecar with the content type exists beside the file, and is not reachable either.
    expect((await readdir(join(s.mediaDir, ws))).filter((f) => f.endsWith('.json'))).toHaveLength(2);
  });

  it('downloads the media of a message sent from the phone too, and redelivery enqueues nothing twice', async () => {
    const ws = owned.workspace.id;
    const phone = randomPhone();
    const ref = `ref-own-${ws}`;
    const own = scanMessage({ phone, fromMe: true, type: 'image', content: '', media: media(ref, PNG, { mimeType: 'image/jpeg' }) });
    await s.handler.handle(ws, { type: 'messages', kind: 'notify', messages: [own] });
    const url = await eventually('own media', async () => ((await storedMessage(s.t.dataSource, ws, own.externalId))?.media_url as string) || null);
    expect(url).toMatch(/\.jpg$/);
    await s.handler.handle(ws, { type: 'messages', kind: 'append', messages: [own] });
    expect(s.driver.downloads.filter((r) => r === ref)).toHaveLength(1);
  });

  it('a redelivery that saved the reference again after the file was stored downloads nothing and settles nothing twice', async () => {
    const ws = owned.workspace.id;
    const ref = `ref-race-${ws}`;
    const message = scanMessage({ type: 'image', content: 'once', media: media(ref, PNG, { mimeType: 'image/png' }) });
    let settled = 0;
    const unregister = s.t.app
      .get(IngestHooks)
      .register({ mediaSettled: async ({ message: m }) => void (m.externalId === message.externalId && (settled += 1)) });
    try {
      await s.handler.handle(ws, { type: 'messages', kind: 'notify', messages: [message] });
      await eventually('the file stored', async () => ((await storedMessage(s.t.dataSource, ws, message.externalId))?.media_url as string) || null);
      // The repeat read the row before that job committed, so it saves the reference and enqueues
      // the (finished, removed) job again: as WhatsApp's redelivery of an unacknowledged message can.
      const [row]: { id: string }[] = await s.t.dataSource.query('SELECT id FROM messages WHERE workspace_id = $1 AND external_id = $2', [
        ws,
        message.externalId,
      ]);
      await s.t.app.get(ScanInboundRepository).saveMediaRef(ws, row!.id, s.t.app.get(EncryptionService).encrypt(ref, MEDIA_REF_PURPOSE));
      await s.t.app.get(MediaDownloadProcessor).process({ data: { workspaceId: ws, messageId: row!.id } } as Job<MediaDownloadJob>);
      expect(s.driver.downloads.filter((r) => r === ref)).toHaveLength(1);
      expect(settled).toBe(1);
      const [left]: { n: number }[] = await s.t.dataSource.query('SELECT count(*)::int AS n FROM scan_media_refs WHERE message_id = $1', [row!.id]);
      expect(left!.n).toBe(0);
    } finally {
      unregister();
    }
  });

  it('downloads MEDIA_DOWNLOAD_CONCURRENCY files at once, not WORKER_CONCURRENCY: a slow media host does not queue images five at a time', async () => {
    const ws = owned.workspace.id;
    const images = Array.from({ length: 12 }, (_, i) =>
      scanMessage({ type: 'image', content: `slow ${i}`, media: media(`ref-slow-${i}-${ws}`, PNG, { mimeType: 'image/png' }) }),
    );
    let release!: () => void;
    s.driver.hold = new Promise<void>((resolve) => (release = resolve));
    try {
      await s.handler.handle(ws, { type: 'messages', kind: 'notify', messages: images });
      // The default is 20 at once, the other queues' 5: every one of the twelve is in flight together.
      await eventually('twelve downloads in flight', async () => s.driver.inFlight === 12 || null);
    } finally {
      s.driver.hold = undefined;
      release();
    }
    for (const image of images) {
      await eventually(`media_url of ${image.content}`, async () => ((await storedMessage(s.t.dataSource, ws, image.externalId))?.media_url as string) || null);
    }
  });

  it('serves a contact\'s HTML or SVG "image" as a download of opaque bytes, never inline on our origin (stored XSS)', async () => {
    const ws = owned.workspace.id;
    const script = Buffer.from('<html><script>fetch("/api/keys",{method:"POST"})</script></html>');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
    const JPEG = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.from('a jpeg, as far as headers go')]);
    const sent: [mimeType: string, bytes: Buffer][] = [
      ['text/html', script],
      ['image/svg+xml', svg],
      ['Text/HTML; charset=utf-8', script],
      ['image/jpeg', JPEG],
    ];
    const phone = randomPhone();
    const messages = sent.map(([mimeType, bytes], i) =>
      scanMessage({ phone, type: 'image', content: '', media: media(`ref-xss-${i}-${ws}`, bytes, { mimeType }) }),
    );
    await s.handler.handle(ws, { type: 'messages', kind: 'notify', messages });
    const agent = await s.t.factories.signedInMember(ws, 'agent');
    for (const [i, [mimeType, bytes]] of sent.entries()) {
      const row = await eventually(`media of ${mimeType}`, async () => {
        const found = await storedMessage(s.t.dataSource, ws, messages[i]!.externalId);
        return found?.media_url ? found : null;
      });
      // The message keeps what the sender said; only the serving refuses to trust it.
      expect(row).toMatchObject({ message_type: 'image', mime_type: mimeType });
      // As the Console opens it: the operator's cookie, the workspace in the query.
      const res = await s.t
        .http()
        .get(`${String(row.media_url)}?tenant=${ws}`)
        .set('Cookie', agent.cookie)
        .buffer(true);
      const file = String(row.media_url).split('/').pop()!;
      const inline = mimeType === 'image/jpeg';
      expect({
        mimeType,
        status: res.status,
        type: res.headers['content-type'],
        disposition: res.headers['content-disposition'],
        nosniff: res.headers['x-content-type-options'],
        csp: res.headers['content-security-policy'],
      }).toEqual({
        mimeType,
        status: 200,
        type: inline ? 'image/jpeg' : 'application/octet-stream',
        disposition: inline ? 'inline' : `attachment; filename="${file}"; filename*=UTF-8''${file}`,
        nosniff: 'nosniff',
        csp: CSP,
      });
      expect(Buffer.from(res.body as Buffer)).toEqual(bytes);
    }
  });
});
