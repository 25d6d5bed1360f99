import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createServer } from 'node:net';
import { FAST_CHAT_ENV } from '../chat/chat-support.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { chat, createE2eApp, link, newWorkspace, NOTHING_SENT_LIMITS, status, statusWhen, type E2eWorkspace, type Json } from './e2e-support.js';

/**
 * WhatsApp cannot be reached (nothing listens on the port, or the name does not resolve): the real
 * Baileys driver closes its socket with 408 "WebSocket Error (…)" before any QR code was shown.
 * That is a failed start, not an expired QR: connect answers 500 with the reason, and the status
 * and QR endpoints carry it. A linked number whose connection drops still reconnects with backoff.
 */
jest.setTimeout(60_000);

const PHONE = '15550100031';

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const retryHint = '; call POST /api/chat/connect to try again';

describe('scan channel end to end: WhatsApp unreachable', () => {
  describe.each([
    ['a closed port', async () => `ws://127.0.0.1:${await closedPort()}/ws/chat`, (url: string) => `connect ECONNREFUSED ${new URL(url).host}`],
    ['a name that does not resolve', () => Promise.resolve('ws://web.whatsapp.invalid/ws/chat'), () => 'getaddrinfo ENOTFOUND web.whatsapp.invalid'],
  ])('WA_WEBSOCKET_URL at %s', (_what, url, cause) => {
    let t: TestApp;
    let ws: E2eWorkspace;
    let wsUrl: string;

    beforeAll(async () => {
      wsUrl = await url();
      t = await createTestApp({ env: { ...FAST_CHAT_ENV, WA_WEBSOCKET_URL: wsUrl } });
      ws = await newWorkspace(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('connect answers 500 with the reason; status and QR carry it (no "expired" code); a new connect tries again', async () => {
      const text = `could not reach WhatsApp: ${cause(wsUrl)}${retryHint}`;
      const res = await chat(t, ws.owner, 'post', '/api/chat/connect');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: text });

      expect(await status(t, ws)).toEqual({
        connected: false,
        logged_in: false,
        qr_pending: false,
        state: 'failed',
        since: expect.any(String),
        error: text,
        sync: { state: 'idle', progress: 0 },
        limits: NOTHING_SENT_LIMITS,
        placement: null,
      });
      expect((await chat(t, { key: ws.key }, 'get', '/api/chat/qr')).body).toEqual({ pending: false, image: '', error: text, message: text });

      // Stopped, not retrying on its own: nobody holds the session.
      const row = (await t.dataSource.query('SELECT desired, linked, qr_expired, last_error FROM scan_sessions WHERE workspace_id = $1', [
        ws.workspaceId,
      ])) as Json[];
      expect(row[0]).toEqual({ desired: 'stopped', linked: false, qr_expired: false, last_error: text });

      // The next connect tries again (and fails the same way, with the same answer).
      const again = await chat(t, ws.owner, 'post', '/api/chat/connect');
      expect(again.status).toBe(500);
      expect(again.body).toEqual({ error: text });
    });
  });

  describe('a linked number whose WhatsApp goes away', () => {
    let sim: WhatsAppSimulator;
    let t: TestApp;
    let ws: E2eWorkspace;

    beforeAll(async () => {
      sim = await WhatsAppSimulator.start();
      t = await createE2eApp(sim);
      ws = await newWorkspace(t);
    });
    afterAll(async () => {
      await t?.close();
      await sim?.stop();
    });

    it('keeps its link and reconnects with backoff (the failure count), not the "could not reach" stop', async () => {
      await link(t, sim, ws, PHONE);
      await sim.stop();
      // CHAT_MAX_FAILURES is 3 in the tests: the backoff runs out and says so; the link is kept.
      const stopped = await statusWhen(t, ws, 'the backoff run out', (s) => typeof s.error === 'string');
      expect(stopped).toMatchObject({ connected: false, logged_in: true, qr_pending: false });
      expect(stopped.error).toMatch(/^the connection failed 3 times in a row \(last: .+\); call POST \/api\/chat\/connect to try again$/);
      expect(stopped.error).not.toContain('could not reach WhatsApp');
    });
  });
});
