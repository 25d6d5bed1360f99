import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { ScanNotConnectedError } from '../../src/modules/chat/session/scan-sessions.port.js';
import { randomPhone } from '../support/inbox-factories.js';
import { dataOf, listenUrl, openSse } from '../support/sse-client.js';
import { createInboundTestApp, eventually, type InboundTestApp, scanMessage } from './inbound-support.js';

/** The WhatsApp id a new message is sent with (waMessageId of the inbox's id). */
const WA_ID = expect.stringMatching(/^3EB0[0-9A-F]{36}$/);

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('pixels')]);

/** A scan conversation (created by an inbound message), its workspace's write key, and the chat jid. */
async function scanChat(s: InboundTestApp, group = false): Promise<{ ws: string; key: string; id: string; jid: string; inbound: string[] }> {
  const { workspace, key } = await s.t.factories.workspaceWithOwner();
  const jid = group ? `120363${Math.floor(Math.random() * 1e12)}@g.us` : `${randomPhone()}@s.whatsapp.net`;
  const messages = [1, 2].map((i) =>
    scanMessage({ chatJid: jid, isGroup: group, senderJid: group ? `${randomPhone()}@s.whatsapp.net` : jid, timestamp: new Date(Date.now() - 10_000 + i) }),
  );
  await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages });
  const [row]: { id: string }[] = await s.t.dataSource.query('SELECT id FROM conversations WHERE workspace_id = $1', [workspace.id]);
  return { ws: workspace.id, key, id: row!.id, jid, inbound: messages.map((m) => m.externalId) };
}

/** Messages stored as sent by the workspace (none after a refused send). */
async function outboundCount(s: InboundTestApp, workspaceId: string): Promise<number> {
  const [row]: { n: number }[] = await s.t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'outbound'`, [
    workspaceId,
  ]);
  return row!.n;
}

/** A queued send's stored row once its turn came (status `sent` or `failed`). */
async function settled(s: InboundTestApp, id: string, timeoutMs?: number): Promise<{ status: string; error: string | null; external_id: string | null }> {
  return eventually(
    `message ${id} sent or failed`,
    async () => {
      const [row]: { status: string; error: string | null; external_id: string | null }[] = await s.t.dataSource.query(
        'SELECT status, error, external_id FROM messages WHERE id = $1',
        [id],
      );
      return row && row.status !== 'pending' ? row : null;
    },
    timeoutMs,
  );
}

describe('scan channel gateway: sending and read receipts through ScanSessions', () => {
  let s: InboundTestApp;
  beforeAll(async () => {
    s = await createInboundTestApp();
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    s.sessions.failure = null;
    s.sessions.beforeResolve = null;
  });

  const send = (key: string, id: string, body: object) => s.t.http().post(`/api/conversations/${id}/messages`).set('Authorization', `Bearer ${key}`).send(body);

  it('queues a text (201 pending), sends it to the chat jid on its turn and stores the channel id as chat_message_id', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    const res = await send(chat.key, chat.id, { body: 'Hello from the API' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ direction: 'outbound', status: 'pending', content: 'Hello from the API', chat_message_id: null });
    const row = await settled(s, res.body.id);
    const call = s.sessions.sends.find((c) => c.workspaceId === chat.ws);
    // WhatsApp's id of the message derives from the inbox's (a resend after a crash re-uses it).
    expect(call).toEqual({ workspaceId: chat.ws, jid: chat.jid, outgoing: { type: 'text', body: 'Hello from the API', messageId: waMessageId(res.body.id) } });
    expect(row).toEqual({ status: 'sent', error: null, external_id: waMessageId(res.body.id) });
    const shown = await s.t.http().get(`/api/conversations/${chat.id}/messages`).set('Authorization', `Bearer ${chat.key}`);
    expect(shown.body.messages.find((m: { id: string }) => m.id === res.body.id)).toMatchObject({ status: 'sent', chat_message_id: waMessageId(res.body.id) });
  });

  it('answers 409 `chat is not connected` when the socket is not open, and sends nothing', async () => {
    const chat = await scanChat(s);
    const res = await send(chat.key, chat.id, { body: 'anyone there?' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'chat is not connected' });
    expect(s.sessions.sends.filter((c) => c.workspaceId === chat.ws)).toEqual([]);
  });

  it('keeps a send queued when the socket drops between the check and the send, and sends it once the socket is back', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    s.sessions.failure = new ScanNotConnectedError();
    const res = await send(chat.key, chat.id, { body: 'just missed it' });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending');
    // The pump tried, found no socket, and keeps the message waiting (not failed, not lost).
    await eventually('a refused try', async () => s.sessions.tries.some((c) => c.workspaceId === chat.ws) || null);
    const [waiting]: { status: string }[] = await s.t.dataSource.query('SELECT status FROM messages WHERE id = $1', [res.body.id]);
    expect(waiting!.status).toBe('pending');
    s.sessions.failure = null;
    expect(await settled(s, res.body.id)).toEqual({ status: 'sent', error: null, external_id: waMessageId(res.body.id) });
    expect(s.sessions.sends.filter((c) => c.workspaceId === chat.ws).map((c) => c.outgoing)).toEqual([
      { type: 'text', body: 'just missed it', messageId: waMessageId(res.body.id) },
    ]);
  });

  it('tries a send the channel fails for no stated reason three times, then marks it failed with a generic text', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    s.sessions.failure = new Error('socket exploded: internal detail');
    const res = await send(chat.key, chat.id, { body: 'boom' });
    expect(res.status).toBe(201);
    // Backs off 4 s, then 8 s between the tries.
    expect(await settled(s, res.body.id, 30_000)).toEqual({ status: 'failed', error: 'the channel failed to send the message', external_id: null });
    expect(s.sessions.tries.filter((c) => c.workspaceId === chat.ws)).toHaveLength(3);
  }, 45_000);

  it('sends an uploaded image and a document as bytes with their type, name and caption', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    const image = await send(chat.key, chat.id, { type: 'image', caption: 'our logo', media: { data_base64: PNG.toString('base64'), mime_type: 'image/png' } });
    expect(image.status).toBe(201);
    const doc = await send(chat.key, chat.id, {
      type: 'document',
      media: { data_base64: Buffer.from('%PDF-1.4').toString('base64'), mime_type: 'application/pdf', file_name: 'offer.pdf' },
    });
    expect(doc.status).toBe(201);
    await settled(s, image.body.id);
    await settled(s, doc.body.id);
    const calls = s.sessions.sends.filter((c) => c.workspaceId === chat.ws);
    expect(calls.map((c) => c.outgoing)).toEqual([
      { type: 'image', data: PNG, mimeType: 'image/png', fileName: '', caption: 'our logo', messageId: WA_ID },
      { type: 'document', data: Buffer.from('%PDF-1.4'), mimeType: 'application/pdf', fileName: 'offer.pdf', caption: '', messageId: WA_ID },
    ]);
  });

  it('refuses a media url on a private or local address with 400, storing and sending nothing', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    const urls = [
      'http://127.0.0.1:9/x.png',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x.png',
      'http://10.1.2.3/x.png',
      'http://localhost/x.png',
      'https://0x7f000001/x.png',
    ];
    for (const url of urls) {
      const res = await send(chat.key, chat.id, { type: 'image', media: { url } });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 400, body: { error: 'media url points to a private or local address' } });
    }
    const bad = await send(chat.key, chat.id, { type: 'document', media: { url: 'file:///etc/passwd' } });
    expect([bad.status, bad.body]).toEqual([400, { error: 'media url must be an http or https address' }]);
    // Also when the channel is not connected: input is checked before the connection.
    s.sessions.connected.delete(chat.ws);
    const offline = await send(chat.key, chat.id, { type: 'image', media: { url: 'http://127.0.0.1/x.png' } });
    expect([offline.status, offline.body]).toEqual([400, { error: 'media url points to a private or local address' }]);
    expect(s.sessions.sends.filter((c) => c.workspaceId === chat.ws)).toEqual([]);
    expect(await outboundCount(s, chat.ws)).toBe(0);
  });

  it('stores our send once when the channel echoes it before the send has recorded its id', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    let echoed: Promise<void> | undefined;
    s.sessions.beforeResolve = async (call, externalId) => {
      // The worker ingests the echo while the api process still waits for the send's answer.
      const echo = scanMessage({ chatJid: call.jid, fromMe: true, externalId, content: 'echo me', senderJid: '4915100000001@s.whatsapp.net' });
      echoed = s.handler.handle(chat.ws, { type: 'messages', kind: 'append', messages: [echo] });
      await new Promise((resolve) => setTimeout(resolve, 300));
    };
    const stream = await openSse(`${await listenUrl(s.t.app)}/api/events`, { Authorization: `Bearer ${chat.key}` });
    let res: Awaited<ReturnType<typeof send>>;
    try {
      res = await send(chat.key, chat.id, { body: 'echo me' });
      expect(res.status).toBe(201);
      await settled(s, res.body.id);
      await echoed;
      await stream.waitFor('message.created', (c) => c.events.some((e) => e.event === 'message.created'));
      // The row the Console was shown first (pending) is the one that stays: no ghost, no twin.
      const created = stream.events.filter((e) => e.event === 'message.created').map((e) => dataOf(e).id);
      expect(created[0]).toBe(res.body.id);
    } finally {
      stream.close();
    }
    const rows: { id: string; external_id: string; status: string }[] = await s.t.dataSource.query(
      `SELECT id, external_id, status FROM messages WHERE conversation_id = $1 AND direction = 'outbound'`,
      [chat.id],
    );
    expect(rows).toEqual([{ id: res.body.id, external_id: waMessageId(res.body.id), status: 'sent' }]);
  });

  it('sends read receipts for the unread messages on mark-read (1:1: no participant)', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    const res = await s.t.http().post(`/api/conversations/${chat.id}/read`).set('Authorization', `Bearer ${chat.key}`).send({});
    expect(res.status).toBe(200);
    const reads = s.sessions.reads.filter((r) => r.workspaceId === chat.ws);
    expect(reads).toHaveLength(1);
    expect([...reads[0]!.keys].sort((a, b) => a.externalId.localeCompare(b.externalId))).toEqual(
      [...chat.inbound].sort().map((externalId) => ({ chatJid: chat.jid, externalId, participant: null })),
    );
  });

  it('names the sender of each message in a group read receipt', async () => {
    const chat = await scanChat(s, true);
    s.sessions.connected.add(chat.ws);
    const senders: { external_id: string; sender_jid: string }[] = await s.t.dataSource.query(
      `SELECT external_id, sender_jid FROM messages WHERE conversation_id = $1`,
      [chat.id],
    );
    expect((await s.t.http().post(`/api/conversations/${chat.id}/read`).set('Authorization', `Bearer ${chat.key}`).send({})).status).toBe(200);
    const [read] = s.sessions.reads.filter((r) => r.workspaceId === chat.ws);
    expect([...read!.keys].sort((a, b) => a.externalId.localeCompare(b.externalId))).toEqual(
      senders
        .sort((a, b) => a.external_id.localeCompare(b.external_id))
        .map((m) => ({ chatJid: chat.jid, externalId: m.external_id, participant: m.sender_jid })),
    );
  });
});

describe('scan channel gateway: media urls (private addresses allowed for this test)', () => {
  let s: InboundTestApp;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    s = await createInboundTestApp({ ALLOW_PRIVATE_MEDIA_URLS: 'true' });
    server = createServer((req, res) => {
      if (req.url === '/logo.png') return void res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
      if (req.url === '/moved') return void res.writeHead(302, { Location: '/logo.png' }).end();
      if (req.url === '/broken.png') return void res.writeHead(503).end('down');
      if (req.url === '/page.html') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html></html>');
      if (req.url === '/huge.png') return void res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(17 * 1024 * 1024) }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await s?.close();
  });

  it('fetches the url (following a redirect) and sends the bytes with the answered content type; refuses what it cannot fetch', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    const post = (url: string) =>
      s.t.http().post(`/api/conversations/${chat.id}/messages`).set('Authorization', `Bearer ${chat.key}`).send({ type: 'image', media: { url } });
    const moved = await post(`${base}/moved`);
    expect(moved.status).toBe(201);
    expect((await settled(s, moved.body.id)).status).toBe('sent');
    expect(s.sessions.sends.at(-1)?.outgoing).toEqual({ type: 'image', data: PNG, mimeType: 'image/png', fileName: '', caption: '', messageId: WA_ID });
  });

  it('a url the service refuses (too large, not an image) is 400; a media host that fails is 502; neither stores or sends anything', async () => {
    const chat = await scanChat(s);
    s.sessions.connected.add(chat.ws);
    const sendsBefore = s.sessions.sends.length;
    const post = (url: string) =>
      s.t.http().post(`/api/conversations/${chat.id}/messages`).set('Authorization', `Bearer ${chat.key}`).send({ type: 'image', media: { url } });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const cases: [string, number, string][] = [
      [`${base}/huge.png`, 400, `media is larger than ${16 * 1024 * 1024} bytes`],
      [`${base}/page.html`, 400, 'media url did not answer an image'],
      [`${base}/missing.png`, 502, 'media url answered HTTP 404'],
      [`${base}/broken.png`, 502, 'media url answered HTTP 503'],
      [`http://127.0.0.1:${closedPort}/x.png`, 502, 'media url could not be fetched'],
    ];
    for (const [url, status, error] of cases) {
      const res = await post(url);
      expect([url, res.status, res.body]).toEqual([url, status, { error }]);
    }
    expect(s.sessions.sends.length).toBe(sendsBefore);
    expect(await outboundCount(s, chat.ws)).toBe(0);
  });
});
