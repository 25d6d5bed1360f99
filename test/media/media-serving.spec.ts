import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MEDIA_STORE, type MediaStore } from '../../src/modules/media/media-store.port.js';
import { mediaFileName } from '../../src/modules/media/media-file-name.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";
const HTML = Buffer.from('<html><script>fetch("/api/keys",{method:"POST"})</script></html>');

/**
 * Stored media keeps the type its sender claimed, and is served from the service's own origin
 * where an operator's session cookie is valid: only types a browser merely displays or plays may
 * be served inline, as themselves; anything else is a download of opaque bytes, and every answer
 * carries nosniff, a sandboxing CSP and CORP (stored XSS through `GET /api/media`).
 */
describe('GET /api/media/:workspace/:file: content type, disposition and security headers', () => {
  let t: TestApp;
  let store: MediaStore;
  let ws: string;
  let key: string;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    store = t.app.get<MediaStore>(MEDIA_STORE);
    const owned = await t.factories.workspaceWithOwner();
    ws = owned.workspace.id;
    key = owned.key;
    cookie = owned.owner.cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Stores `bytes` as a channel would (file named after a fresh message id and the type); answers its path. */
  const stored = async (mimeType: string, fileName: string | null = null, bytes: Buffer = HTML): Promise<{ path: string; file: string }> => {
    const file = mediaFileName(crypto.randomUUID(), mimeType);
    await store.put(ws, file, bytes, { mimeType, fileName });
    return { path: `/api/media/${ws}/${file}`, file };
  };
  const get = (path: string) =>
    t
      .http()
      .get(path)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const security = (headers: Record<string, string>) => ({
    csp: headers['content-security-policy'],
    nosniff: headers['x-content-type-options'],
    corp: headers['cross-origin-resource-policy'],
  });
  const SECURE = { csp: CSP, nosniff: 'nosniff', corp: 'same-origin' };

  it('serves HTML, SVG, XML and script types as application/octet-stream attachments named by our file name', async () => {
    const active = [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/xml',
      'application/rss+xml',
      'application/javascript',
      'text/javascript',
      'multipart/x-mixed-replace',
      '',
    ];
    for (const type of active) {
      const { path, file } = await stored(type);
      const res = await get(path);
      expect({
        type,
        status: res.status,
        contentType: res.headers['content-type'],
        disposition: res.headers['content-disposition'],
        ...security(res.headers),
      }).toEqual({
        type,
        status: 200,
        contentType: 'application/octet-stream',
        disposition: `attachment; filename="${file}"; filename*=UTF-8''${file}`,
        ...SECURE,
      });
      expect((res.body as Buffer).equals(HTML)).toBe(true);
    }
  });

  it('serves other types (PDF, text, HEIC, unknown) as attachments with their own type', async () => {
    for (const [type, served] of [
      ['application/pdf', 'application/pdf'],
      ['Application/PDF; name=x', 'application/pdf'],
      ['text/plain', 'text/plain'],
      ['image/heic', 'image/heic'],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['x/unknown', 'x/unknown'],
    ]) {
      const { path, file } = await stored(type!);
      const res = await get(path);
      expect({ type, contentType: res.headers['content-type'], disposition: res.headers['content-disposition'], ...security(res.headers) }).toEqual({
        type,
        contentType: served,
        disposition: `attachment; filename="${file}"; filename*=UTF-8''${file}`,
        ...SECURE,
      });
    }
  });

  it('is not fooled by case, parameters, spacing or lists in the stored type', async () => {
    const sneaky = [
      'Text/HTML; charset=utf-8',
      'TEXT/HTML',
      ' text/html ',
      'text/html;',
      'Image/SVG+XML; charset=utf-8',
      'image/png, text/html',
      'image/png text/html',
      'image /png',
      'image/png\u0000',
    ];
    for (const type of sneaky) {
      const res = await get((await stored(type)).path);
      expect({ type, contentType: res.headers['content-type'], disposition: res.headers['content-disposition']?.split(';')[0] }).toEqual({
        type,
        contentType: 'application/octet-stream',
        disposition: 'attachment',
      });
    }
  });

  it('serves raster images, audio and video inline as their normalised type, parameters and case dropped', async () => {
    const cases: [stored: string, served: string][] = [
      ['image/jpeg', 'image/jpeg'],
      ['image/png', 'image/png'],
      ['image/gif', 'image/gif'],
      ['image/webp', 'image/webp'],
      ['IMAGE/JPEG', 'image/jpeg'],
      ['image/png; name="x.html"', 'image/png'],
      ['audio/ogg; codecs=opus', 'audio/ogg'],
      ['audio/mpeg', 'audio/mpeg'],
      ['audio/mp4', 'audio/mp4'],
      ['video/mp4', 'video/mp4'],
      ['video/3gpp', 'video/3gpp'],
    ];
    const bytes = randomBytes(64);
    for (const [type, served] of cases) {
      const res = await get((await stored(type, null, bytes)).path);
      expect({
        type,
        status: res.status,
        contentType: res.headers['content-type'],
        disposition: res.headers['content-disposition'],
        ...security(res.headers),
      }).toEqual({
        type,
        status: 200,
        contentType: served,
        disposition: 'inline',
        ...SECURE,
      });
      expect((res.body as Buffer).equals(bytes)).toBe(true);
    }
  });

  it("names an attachment by the sender's file name, RFC 6266 fallback plus RFC 5987, keeping an allowlisted document type", async () => {
    const html = await get((await stored('text/html', 'Rechnung "März" 100%/(1)*\'.html')).path);
    expect([html.headers['content-type'], html.headers['content-disposition']]).toEqual([
      'application/octet-stream',
      `attachment; filename="Rechnung _M_rz_ 100__(1)*'.html"; filename*=UTF-8''Rechnung%20%22M%C3%A4rz%22%20100%25%2F%281%29%2A%27.html`,
    ]);
    const photo = await get((await stored('image/jpeg', 'photo.jpg')).path);
    expect([photo.headers['content-type'], photo.headers['content-disposition']]).toEqual([
      'image/jpeg',
      `attachment; filename="photo.jpg"; filename*=UTF-8''photo.jpg`,
    ]);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const res = await t
      .http()
      .head((await stored('image/svg+xml')).path)
      .set('Authorization', `Bearer ${key}`);
    expect([res.status, res.headers['content-type'], res.headers['content-disposition']?.split(';')[0], res.headers['content-length']]).toEqual([
      200,
      'application/octet-stream',
      'attachment',
      String(HTML.length),
    ]);
    expect(security(res.headers)).toEqual(SECURE);
  });

  it('sends the security headers on refusals too (401, 404), and to a signed-in member', async () => {
    const { path } = await stored('text/html');
    const anonymous = await t.http().get(path);
    expect([anonymous.status, security(anonymous.headers)]).toEqual([401, SECURE]);
    const missing = await t
      .http()
      .get(`/api/media/${ws}/${'cd'.repeat(16)}.jpg`)
      .set('Authorization', `Bearer ${key}`);
    expect([missing.status, missing.body, security(missing.headers)]).toEqual([404, { error: 'media not found' }, SECURE]);
    const member = await t.http().get(`${path}?tenant=${ws}`).set('Cookie', cookie);
    expect([member.status, member.headers['content-type'], member.headers['content-disposition']?.split(';')[0], security(member.headers)]).toEqual([
      200,
      'application/octet-stream',
      'attachment',
      SECURE,
    ]);
  });
});
