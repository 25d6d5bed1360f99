import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { ScanMedia } from '../../src/modules/chat/driver/scan-driver.port.js';
import { MediaDownloadProcessor } from '../../src/modules/chat/inbound/media-download.processor.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { scanMessage } from '../chat/inbound-support.js';
import { randomPhone } from '../support/inbox-factories.js';
import { addWebhook, createWebhookTestApp, eventually, json, ownedWorkspace, type Owned, Receiver, type Received, secretOf } from './webhook-support.js';

const PDF = Buffer.from('%PDF-1.4\n% the invoice\n');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The contract's check, with nothing but node:crypto: hex HMAC-SHA256 keyed with the secret string, over the raw body. */
function hubSignatureValid(request: Received, secret: string): boolean {
  const header = String(request.headers['x-hub-signature-256'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

/** The Standard Webhooks check, with the reference library (it also rejects stale timestamps). */
function standardPayload(request: Received, secret: string): unknown {
  return new Webhook(secret).verify(request.body.toString('utf8'), request.headers as Record<string, string>);
}

describe('scan.chat events', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  let owned: Owned;
  let secret: string;
  let path: string;

  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
    owned = await ownedWorkspace(s.t);
    path = `/events-${owned.workspaceId}`;
    await addWebhook(owned, receiver.url(path), { events: ['scan.chat'] });
    secret = await secretOf(owned);
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  const deliver = async (...messages: ReturnType<typeof scanMessage>[]): Promise<void> =>
    s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages });
  const receivedFor = (externalId: string): Received[] => receiver.at(path).filter((r) => json(r).chat_message_id === externalId);
  const eventFor = async (externalId: string): Promise<Received> => eventually(`the event of ${externalId}`, async () => receivedFor(externalId)[0] ?? null);
  const conversationOf = async (externalId: string): Promise<string> =>
    (
      (await s.t.dataSource.query(`SELECT conversation_id FROM messages WHERE workspace_id = $1 AND external_id = $2`, [owned.workspaceId, externalId])) as {
        conversation_id: string;
      }[]
    )[0]!.conversation_id;

  it('posts a one-to-one text with every field of the contract, typed, signed both ways over the bytes sent', async () => {
    const phone = randomPhone();
    const message = scanMessage({ phone, senderName: 'Ada Lovelace', content: 'Grüße 👋 "quoted"', timestamp: new Date('2026-03-04T05:06:07Z') });
    await deliver(message);
    const request = await eventFor(message.externalId);

    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-svc-event']).toBe('scan.chat');
    expect(json(request)).toEqual({
      event: 'message.inbound',
      channel: 'scan',
      workspace_id: owned.workspaceId,
      conversation_id: await conversationOf(message.externalId),
      chat_message_id: message.externalId,
      chat_jid: `${phone}@s.whatsapp.net`,
      sender_jid: `${phone}@s.whatsapp.net`,
      sender_name: 'Ada Lovelace',
      content: 'Grüße 👋 "quoted"',
      message_type: 'text',
      media_url: '',
      mime_type: '',
      file_name: '',
      file_size: 0,
      timestamp: '2026-03-04T05:06:07Z',
      is_group: false,
      chat_name: 'Ada Lovelace',
      chat_phone: phone,
      // Beside the contract's fields: the message's place in its conversation (its first), the
      // precise kind and the parts of the other kinds, empty here.
      seq: 1,
      kind: 'text',
      duration_s: 0,
      quoted_message_id: '',
      mentions: [],
      location: null,
      contacts: null,
      poll: null,
      reply: null,
    });

    expect(hubSignatureValid(request, secret)).toBe(true);
    expect(standardPayload(request, secret)).toEqual(json(request));
    expect(request.headers['webhook-id']).toMatch(UUID);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    // Signed with another secret, or over other bytes, neither check passes.
    expect(hubSignatureValid(request, `${secret}x`)).toBe(false);
    expect(() => standardPayload({ ...request, body: Buffer.concat([request.body, Buffer.from(' ')]) }, secret)).toThrow();
  });

  it('posts a group message: the group as chat, the member as sender, is_group true, no phone', async () => {
    const member = randomPhone();
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    const message = scanMessage({ chatJid: group, isGroup: true, senderJid: `${member}@s.whatsapp.net`, senderName: 'Bob', content: 'hi team' });
    await deliver(message);
    const body = json(await eventFor(message.externalId));
    expect(body).toEqual(
      expect.objectContaining({
        chat_jid: group,
        sender_jid: `${member}@s.whatsapp.net`,
        sender_name: 'Bob',
        content: 'hi team',
        message_type: 'text',
        is_group: true,
        chat_phone: '',
        chat_name: '',
        conversation_id: await conversationOf(message.externalId),
      }),
    );
  });

  it('names a group by its subject (from the group metadata), with the writer as sender_name', async () => {
    const member = randomPhone();
    const group = `120363${Math.floor(Math.random() * 1e12)}@g.us`;
    const first = scanMessage({
      chatJid: group,
      isGroup: true,
      chatName: 'Night shift',
      senderJid: `${member}@s.whatsapp.net`,
      senderName: 'Bob',
      content: 'hi team',
    });
    await deliver(first);
    expect(json(await eventFor(first.externalId))).toEqual(
      expect.objectContaining({
        chat_jid: group,
        is_group: true,
        chat_name: 'Night shift',
        sender_name: 'Bob',
        sender_jid: `${member}@s.whatsapp.net`,
        chat_phone: '',
      }),
    );
    // Another member writes: the group's name stays, the sender's is theirs.
    const other = randomPhone();
    const second = scanMessage({
      chatJid: group,
      isGroup: true,
      chatName: 'Night shift',
      senderJid: `${other}@s.whatsapp.net`,
      senderName: 'Cleo',
      content: 'hello',
    });
    await deliver(second);
    expect(json(await eventFor(second.externalId))).toEqual(
      expect.objectContaining({ chat_name: 'Night shift', sender_name: 'Cleo', sender_jid: `${other}@s.whatsapp.net` }),
    );
  });

  it('posts a document only once its file is stored, with a media_url that serves it', async () => {
    const ref = `ref-${owned.workspaceId}-doc`;
    const media: ScanMedia = { ref, mimeType: 'application/pdf', fileName: 'Rechnung März.pdf', fileSize: 0 };
    // The download waits until the test has seen that nothing was sent before the file exists.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const download = s.driver.downloadMedia.bind(s.driver);
    s.driver.downloadMedia = async (wanted: string) => {
      if (wanted === ref) await gate;
      return download(wanted);
    };
    s.driver.media.set(ref, PDF);
    const message = scanMessage({ type: 'document', content: 'the invoice', media });
    await deliver(message);
    const held: { status: string }[] = await s.t.dataSource.query(
      `SELECT d.status FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.workspace_id = $1 AND e.message_id = (SELECT id FROM messages WHERE external_id = $2)`,
      [owned.workspaceId, message.externalId],
    );
    expect(held).toEqual([{ status: 'held' }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receivedFor(message.externalId)).toEqual([]);

    release();
    const request = await eventFor(message.externalId);
    const body = json(request);
    expect(body).toEqual(
      expect.objectContaining({
        message_type: 'document',
        content: 'the invoice',
        mime_type: 'application/pdf',
        file_name: 'Rechnung März.pdf',
        file_size: PDF.length,
      }),
    );
    expect(body.media_url).toMatch(new RegExp(`^/api/media/${owned.workspaceId}/[a-f0-9]{32}\\.pdf$`));
    expect(hubSignatureValid(request, secret)).toBe(true);
    expect(standardPayload(request, secret)).toEqual(body);
    // The receiver can fetch the file the moment it hears of it.
    const { key } = await s.t.factories.apiKey(owned.workspaceId, 'read');
    const file = await s.t
      .http()
      .get(body.media_url as string)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true);
    expect(file.status).toBe(200);
    expect(Buffer.from(file.body as Buffer)).toEqual(PDF);
  });

  it('posts an image whose download fails for good without media_url, after the last attempt', async () => {
    const message = scanMessage({
      type: 'image',
      content: 'lost picture',
      media: { ref: `missing-${owned.workspaceId}`, mimeType: 'image/jpeg', fileName: '', fileSize: 1234 },
    });
    await deliver(message);
    // As the media job's last attempt ends: its failure handler gives the download up.
    const processor = s.t.app.get(MediaDownloadProcessor);
    const messageRow: { id: string }[] = await s.t.dataSource.query(`SELECT id FROM messages WHERE external_id = $1`, [message.externalId]);
    await processor.onFailed(
      { data: { workspaceId: owned.workspaceId, messageId: messageRow[0]!.id }, attemptsMade: 8, opts: { attempts: 8 } } as never,
      new Error('gone'),
    );
    const body = json(await eventFor(message.externalId));
    expect(body).toEqual(expect.objectContaining({ message_type: 'image', content: 'lost picture', media_url: '', mime_type: 'image/jpeg', file_size: 1234 }));
  });

  it('sends nothing for messages the workspace sent, for history, or for a message delivered again; one event per new message', async () => {
    const phone = randomPhone();
    const fromPhone = scanMessage({ phone, fromMe: true, content: 'sent from the phone', senderJid: '4915100000001@s.whatsapp.net' });
    const history = scanMessage({ phone, content: 'old history', timestamp: new Date(Date.now() - 86_400_000) });
    const live = scanMessage({ phone, content: 'new one' });
    await deliver(fromPhone);
    await s.handler.handle(owned.workspaceId, {
      type: 'history',
      batch: { messages: [history], chatNames: {}, lidMappings: [], progress: 100, isLatest: true },
    });
    await deliver(live);
    // Redelivered (offline queue after a reconnect): same id, already stored.
    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'append', messages: [{ ...live }] });
    await eventFor(live.externalId);
    await eventually(
      'the history batch',
      async () => (await s.t.dataSource.query(`SELECT 1 FROM messages WHERE external_id = $1`, [history.externalId])).length > 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivedFor(live.externalId)).toHaveLength(1);
    expect(receivedFor(fromPhone.externalId)).toEqual([]);
    expect(receivedFor(history.externalId)).toEqual([]);
    const events: { n: number }[] = await s.t.dataSource.query(
      `SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1 AND convert_from(body, 'UTF8')::jsonb->>'chat_message_id' = ANY($2)`,
      [owned.workspaceId, [fromPhone.externalId, history.externalId, live.externalId]],
    );
    expect(events[0]!.n).toBe(1);
  });

  it('sends one delivery per enabled webhook subscribed to scan.chat, each with its own webhook-id', async () => {
    const other = await ownedWorkspace(s.t);
    const [a, b] = [`/a-${other.workspaceId}`, `/b-${other.workspaceId}`];
    await addWebhook(other, receiver.url(a));
    await addWebhook(other, receiver.url(b), { events: ['scan.chat'] });
    await addWebhook(other, receiver.url(`/meta-only-${other.workspaceId}`), { events: ['meta.chat'] });
    await addWebhook(other, receiver.url(`/off-${other.workspaceId}`), { enabled: false });
    const message = scanMessage();
    await s.handler.handle(other.workspaceId, { type: 'messages', kind: 'notify', messages: [message] });
    const [first] = await receiver.waitFor(1, a);
    const [second] = await receiver.waitFor(1, b);
    expect(json(first!).chat_message_id).toBe(message.externalId);
    expect(json(second!).chat_message_id).toBe(message.externalId);
    expect(first!.headers['webhook-id']).not.toBe(second!.headers['webhook-id']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      receiver.received
        .filter((r) => r.path.includes(other.workspaceId))
        .map((r) => r.path)
        .sort(),
    ).toEqual([a, b].sort());
  });
});
