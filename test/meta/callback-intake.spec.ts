import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callback, callbackBytes, contact, messagesChange, signCallback, textMessage } from '../fakes/graph-api/index.js';
import {
  APP_SECRET,
  connectedWorkspace,
  createMetaTestApp,
  deliver,
  eventually,
  type MetaTestApp,
  metaMessages,
  newPhone,
  VERIFY_TOKEN,
} from './meta-support.js';

/** The HTTP side of the provider callback: verification, signature, size, storage. */
describe('provider callback intake (/api/meta/webhook)', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const storedCallbacks = async (): Promise<number> => ((await m.t.dataSource.query(`SELECT count(*)::int AS n FROM meta_callbacks`)) as { n: number }[])[0]!.n;

  describe('verification (GET)', () => {
    it('answers hub.challenge verbatim, as plain text, for subscribe with the verify token', async () => {
      const res = await m.t.http().get('/api/meta/webhook').query({ 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1158201444' });
      expect(res.status).toBe(200);
      expect(res.text).toBe('1158201444');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    });

    it('refuses a wrong token, another mode, or a missing challenge with 403', async () => {
      for (const query of [
        { 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': '1' },
        { 'hub.mode': 'subscribe', 'hub.verify_token': `${VERIFY_TOKEN}x`, 'hub.challenge': '1' },
        { 'hub.mode': 'unsubscribe', 'hub.verify_token': VERIFY_TOKEN, 'hub.challenge': '1' },
        { 'hub.mode': 'subscribe', 'hub.verify_token': VERIFY_TOKEN },
        {},
      ]) {
        const res = await m.t.http().get('/api/meta/webhook').query(query);
        expect([query, res.status, res.body]).toEqual([query, 403, { error: 'webhook verification failed' }]);
      }
    });
  });

  describe('signature (POST)', () => {
    it('accepts the provider signature over the exact bytes and processes the payload', async () => {
      const w = await connectedWorkspace(m);
      const phone = newPhone();
      const res = await deliver(
        m,
        callback({
          wabaId: w.wabaId,
          changes: [messagesChange(w.phoneNumberId, { contacts: [contact({ phone, name: 'Zoë' })], messages: [textMessage({ phone }, 'Grüße aus Köln 👋')] })],
        }),
      );
      expect([res.status, res.body]).toEqual([200, { ok: true }]);
      // Meta escapes everything outside ASCII: the signature covers those escaped bytes.
      expect(res.sent.toString('utf8')).toContain('Gr\\u00fc\\u00dfe');
      const [message] = await eventually('the message', async () => (await metaMessages(m.t, w.workspaceId)).length > 0 && metaMessages(m.t, w.workspaceId));
      expect(message!.content).toBe('Grüße aus Köln 👋');
    });

    it('refuses a missing signature with 401 and stores nothing', async () => {
      const before = await storedCallbacks();
      const res = await deliver(m, callback({ wabaId: '1', changes: [] }), { signature: null });
      expect([res.status, res.body]).toEqual([401, { error: 'missing X-Hub-Signature-256 signature' }]);
      expect(await storedCallbacks()).toBe(before);
    });

    it('refuses a wrong signature (another secret, another shape, another body) with 401 and stores nothing', async () => {
      const before = await storedCallbacks();
      const payload = callback({ wabaId: '1', changes: [] });
      const bytes = callbackBytes(payload);
      for (const signature of [
        signCallback('another-secret', bytes),
        signCallback(APP_SECRET, Buffer.concat([bytes, Buffer.from(' ')])),
        `sha1=${createHmac('sha1', APP_SECRET).update(bytes).digest('hex')}`,
        signCallback(APP_SECRET, bytes).replace('sha256=', ''),
        `${signCallback(APP_SECRET, bytes)}00`,
        'sha256=',
      ]) {
        const res = await deliver(m, bytes, { signature });
        expect([signature, res.status, res.body]).toEqual([signature, 401, { error: 'invalid X-Hub-Signature-256 signature' }]);
      }
      expect(await storedCallbacks()).toBe(before);
    });

    it('refuses a signature computed over a re-serialised body', async () => {
      const w = await connectedWorkspace(m);
      const payload = callback({ wabaId: w.wabaId, changes: [messagesChange(w.phoneNumberId, { messages: [textMessage({ phone: newPhone() }, 'Ünïcödé')] })] });
      const sent = callbackBytes(payload); // escaped, as the provider sends it
      const reserialised = Buffer.from(JSON.stringify(JSON.parse(sent.toString('utf8'))), 'utf8'); // what a parser re-encodes
      expect(reserialised.equals(sent)).toBe(false);
      const res = await deliver(m, sent, { signature: signCallback(APP_SECRET, reserialised) });
      expect(res.status).toBe(401);
      const pretty = Buffer.from(JSON.stringify(payload, null, 2));
      expect((await deliver(m, sent, { signature: signCallback(APP_SECRET, pretty) })).status).toBe(401);
      expect(await metaMessages(m.t, w.workspaceId)).toEqual([]);
    });
  });

  describe('size and shape', () => {
    it('accepts a 3 MB callback and refuses one above 4 MiB with 413 payload too large', async () => {
      const w = await connectedWorkspace(m);
      const phone = newPhone();
      const big = callback({ wabaId: w.wabaId, changes: [messagesChange(w.phoneNumberId, { messages: [textMessage({ phone }, 'x'.repeat(3_000_000))] })] });
      expect((await deliver(m, big)).status).toBe(200);
      const padded = callbackBytes({ ...callback({ wabaId: w.wabaId, changes: [] }), padding: 'y'.repeat(4 * 1024 * 1024) });
      const res = await deliver(m, padded);
      expect([res.status, res.body]).toEqual([413, { error: 'payload too large' }]);
    });

    it('refuses signed bytes that are not a JSON object with 400', async () => {
      for (const [body, error] of [
        ['{"object":', 'malformed JSON body'],
        ['[1,2]', 'callback payload must be a JSON object'],
        [`${'['.repeat(100)}${']'.repeat(100)}`, 'JSON body nested too deeply (at most 64 levels)'],
      ]) {
        const res = await deliver(m, Buffer.from(body!));
        expect([body, res.status, res.body]).toEqual([body, 400, { error }]);
      }
    });

    it('checks the signature over the bytes as sent, never decoding a Content-Encoding first', async () => {
      const bytes = gzipSync(callbackBytes(callback({ wabaId: '1', changes: [] })));
      const post = (headers: Record<string, string>) =>
        fetch(`${m.baseUrl}/api/meta/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: bytes });
      const before = await storedCallbacks();
      for (const encoding of ['gzip', 'br', 'foo']) {
        const unsigned = await post({ 'Content-Encoding': encoding });
        expect([encoding, unsigned.status, await unsigned.json()]).toEqual([encoding, 401, { error: 'missing X-Hub-Signature-256 signature' }]);
        const wrong = await post({ 'Content-Encoding': encoding, 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` });
        expect([encoding, wrong.status, await wrong.json()]).toEqual([encoding, 401, { error: 'invalid X-Hub-Signature-256 signature' }]);
      }
      // Signed as sent: the signature passes, and the bytes are not JSON.
      const signed = await post({ 'Content-Encoding': 'gzip', 'X-Hub-Signature-256': signCallback(APP_SECRET, bytes) });
      expect([signed.status, await signed.json()]).toEqual([400, { error: 'malformed JSON body' }]);
      expect(await storedCallbacks()).toBe(before);
    });

    it('takes any Content-Type: the signature is what counts', async () => {
      const bytes = callbackBytes(callback({ wabaId: '1', changes: [] }));
      const res = await fetch(`${m.baseUrl}/api/meta/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'X-Hub-Signature-256': signCallback(APP_SECRET, bytes) },
        body: bytes,
      });
      expect(res.status).toBe(200);
    });
  });
});
