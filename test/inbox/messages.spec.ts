import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { MessageStatusService } from '../../src/modules/inbox/messages/message-status.service.js';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

// The contract's fields, and those issue 36 added beside them (docs/message-kinds.md).
const MESSAGE_KEYS = [
  'chat_message_id',
  'contacts',
  'content',
  'conversation_id',
  'deleted',
  'direction',
  'duration_s',
  'edited',
  'error',
  'file_name',
  'file_size',
  'id',
  'kind',
  'location',
  'media_url',
  'mentions',
  'message_type',
  'mime_type',
  'poll',
  'quoted_id',
  'quoted_message_id',
  'reactions',
  'reply',
  'sender_jid',
  'sender_name',
  'seq',
  'status',
  'timestamp',
];

describe('messages', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
  });
  beforeEach(() => gateway.reset());
  afterAll(async () => {
    await t?.close();
  });

  async function setup() {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    return { ws: workspace, caller: { key } as Caller };
  }

  describe('list', () => {
    it('pages newest first and walks every message exactly once while new ones arrive', async () => {
      const { ws, caller } = await setup();
      const phone = randomPhone();
      const base = Date.now() - 1_000_000;
      // 120 messages, with ties on the timestamp so the insertion-order tie-breaker is exercised.
      const history = Array.from({ length: 120 }, (_, i) => inbox.inbound({ phone, content: `m${i}`, timestamp: new Date(base + Math.floor(i / 3) * 1000) }));
      await inbox.ingest.ingestBatch(ws.id, history);
      const conversation = (await t.dataSource.query('SELECT id FROM conversations WHERE workspace_id = $1', [ws.id]))[0].id as string;

      const seen: string[] = [];
      const order: [string, number][] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `?limit=25&before=${cursor}` : '?limit=25';
        const res = await call(t, caller, 'get', `/api/conversations/${conversation}/messages${query}`);
        expect(res.status).toBe(200);
        for (const m of res.body.messages as { content: string; timestamp: string; id: string }[]) {
          seen.push(m.content);
          if (m.content.startsWith('m')) order.push([m.timestamp, Number(m.content.slice(1))]);
        }
        cursor = res.body.next_cursor;
        pages++;
        // Newer messages keep arriving while the client pages back.
        await inbox.message(ws.id, { phone, content: `new${pages}` });
      } while (cursor);

      // Each history message exactly once, none of the newer arrivals, newest first and, within a
      // second, the later arrival first.
      expect(seen).toHaveLength(120);
      expect([...seen].sort()).toEqual(history.map((m) => m.content).sort());
      const sorted = [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : b[0].localeCompare(a[0])));
      expect(order).toEqual(sorted);
      expect(pages).toBe(5);
    });

    it('answers the documented shape, default 50, and next_cursor null on the last page', async () => {
      const { ws, caller } = await setup();
      const phone = randomPhone();
      await inbox.ingest.ingestBatch(
        ws.id,
        Array.from({ length: 60 }, (_, i) => inbox.inbound({ phone, timestamp: new Date(Date.now() - i * 1000) })),
      );
      const conversation = (await t.dataSource.query('SELECT id FROM conversations WHERE workspace_id = $1', [ws.id]))[0].id as string;
      const first = await call(t, caller, 'get', `/api/conversations/${conversation}/messages`);
      expect(first.body.messages).toHaveLength(50);
      expect(typeof first.body.next_cursor).toBe('string');
      expect(Object.keys(first.body.messages[0]).sort()).toEqual(MESSAGE_KEYS);
      expect(first.body.messages[0]).toMatchObject({
        conversation_id: conversation,
        direction: 'inbound',
        message_type: 'text',
        status: 'delivered',
        error: null,
        file_size: 0,
      });
      const second = await call(t, caller, 'get', `/api/conversations/${conversation}/messages?before=${first.body.next_cursor}`);
      expect(second.body.messages).toHaveLength(10);
      expect(second.body.next_cursor).toBeNull();
      const all = await call(t, caller, 'get', `/api/conversations/${conversation}/messages?limit=100`);
      expect(all.body.messages).toHaveLength(60);
      expect(all.body.next_cursor).toBeNull();
    });

    it('rejects a bad limit or cursor with 400', async () => {
      const { ws, caller } = await setup();
      const conversation = await inbox.conversation(ws.id);
      const path = `/api/conversations/${conversation.id}/messages`;
      for (const limit of ['0', '101', '-1', 'ten', '2.5', '1e2']) {
        const res = await call(t, caller, 'get', `${path}?limit=${limit}`);
        expect([limit, res.status, res.body.error]).toEqual([limit, 400, 'limit must be an integer between 1 and 100']);
      }
      const cursor = (micros: string): string => Buffer.from(`${micros}:${conversation.id}`).toString('base64url');
      const forged = Buffer.from('123:not-a-uuid').toString('base64url');
      // Well-formed, but before the earliest instant Postgres can store (4714 BC): no message can
      // be there, and the database would fail on it ("timestamp out of range").
      const tooOld = [cursor('-999999999999999999'), cursor('-210866803200000001')];
      for (const before of ['%25%25%25', 'abc', forged, ...tooOld]) {
        const res = await call(t, caller, 'get', `${path}?before=${before}`);
        expect([before, res.status, res.body]).toEqual([before, 400, { error: 'invalid cursor' }]);
      }
      // Not even URL encoding: refused as such, before the cursor is read.
      const garbled = await call(t, caller, 'get', `${path}?before=%%%`);
      expect([garbled.status, garbled.body]).toEqual([400, { error: 'malformed URL encoding' }]);
      // The extremes that are accepted answer a page, not an error.
      const everything = await call(t, caller, 'get', `${path}?before=${cursor('999999999999999999')}`);
      expect([everything.status, everything.body.messages.length]).toEqual([200, 1]);
      const nothing = await call(t, caller, 'get', `${path}?before=${cursor('-210866803200000000')}`);
      expect([nothing.status, nothing.body]).toEqual([200, { messages: [], next_cursor: null }]);
    });
  });

  describe('send', () => {
    it('sends text: stored as pending, then sent with the channel id', async () => {
      const { ws, caller } = await setup();
      gateway.connect(ws.id);
      const conversation = await inbox.conversation(ws.id);
      const res = await call(t, caller, 'post', `/api/conversations/${conversation.id}/messages`, { body: '  hello back  ' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(MESSAGE_KEYS);
      expect(res.body).toMatchObject({
        conversation_id: conversation.id,
        direction: 'outbound',
        message_type: 'text',
        content: 'hello back',
        status: 'sent',
        error: null,
      });
      expect(gateway.sent).toHaveLength(1);
      expect(res.body.chat_message_id).toBe(gateway.sent[0]!.externalId);
      expect(gateway.sent[0]!.outgoing).toEqual({ type: 'text', body: 'hello back', messageId: res.body.id });
      const after = await call(t, caller, 'get', `/api/conversations/${conversation.id}`);
      expect(after.body.last_message_preview).toBe('hello back');
    });

    it('sends media by url or base64', async () => {
      const { ws, caller } = await setup();
      gateway.connect(ws.id);
      const conversation = await inbox.conversation(ws.id);
      const path = `/api/conversations/${conversation.id}/messages`;
      const image = await call(t, caller, 'post', path, {
        type: 'image',
        media: { url: 'https://example.test/cat.jpg', mime_type: 'image/jpeg' },
        caption: 'a cat',
      });
      expect(image.status).toBe(201);
      expect(image.body).toMatchObject({
        message_type: 'image',
        content: 'a cat',
        media_url: 'https://example.test/cat.jpg',
        mime_type: 'image/jpeg',
        status: 'sent',
      });
      const data = Buffer.from('%PDF-1.4 hello').toString('base64');
      const doc = await call(t, caller, 'post', path, { type: 'document', media: { data_base64: data, mime_type: 'application/pdf', file_name: 'a.pdf' } });
      expect(doc.status).toBe(201);
      expect(doc.body).toMatchObject({ message_type: 'document', content: '', file_name: 'a.pdf', file_size: 14, media_url: '' });
      const sentDoc = gateway.sent[1]!.outgoing;
      expect(sentDoc.type === 'document' && sentDoc.media.data?.toString()).toBe('%PDF-1.4 hello');
    });

    it('validates the body before anything else', async () => {
      const { ws, caller } = await setup();
      gateway.connect(ws.id);
      const conversation = await inbox.conversation(ws.id);
      const path = `/api/conversations/${conversation.id}/messages`;
      const cases: [object, string][] = [
        [{}, 'message body is required'],
        [{ body: '   ' }, 'message body is required'],
        [{ type: 'text', body: '' }, 'message body is required'],
        [
          { type: 'poll', body: 'x' },
          'type must be one of text, image, document, video, audio, voice, sticker, location, contacts, template, interactive, reaction',
        ],
        [{ type: 'image' }, 'media is required for image messages'],
        [{ type: 'image', media: {} }, 'media needs exactly one of url and data_base64'],
        [{ type: 'image', media: { url: 'ftp://x/y' } }, 'media url must be an http or https address'],
        [{ type: 'document', media: { data_base64: '***', mime_type: 'application/pdf' } }, 'media data_base64 is not valid base64'],
        [{ type: 'document', media: { data_base64: 'aGVsbG8=' } }, 'media mime_type is required with data_base64'],
        [{ body: 'x'.repeat(65_537) }, 'body must be shorter than or equal to 65536 characters'],
        [
          { type: 'image', media: { url: 'https://example.com/a.png' }, caption: 'x'.repeat(65_537) },
          'caption must be shorter than or equal to 65536 characters',
        ],
      ];
      for (const [body, error] of cases) {
        const res = await call(t, caller, 'post', path, body);
        expect([body, res.status, res.body.error]).toEqual([body, 400, error]);
      }
      const empty = await call(t, caller, 'post', `/api/conversations/00000000-0000-4000-8000-000000000000/messages`, { body: '' });
      expect([empty.status, empty.body.error]).toEqual([400, 'message body is required']);
      expect(gateway.sent).toHaveLength(0);
    });

    it('answers 409 chat is not connected without storing anything', async () => {
      const { ws, caller } = await setup();
      const conversation = await inbox.conversation(ws.id);
      const res = await call(t, caller, 'post', `/api/conversations/${conversation.id}/messages`, { body: 'hello?' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'chat is not connected' });
      const [row] = await t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1`, [conversation.id]);
      expect(row.n).toBe(1);
    });

    it('stores a failed send as failed with the reason and answers 500', async () => {
      const { ws, caller } = await setup();
      gateway.connect(ws.id);
      const conversation = await inbox.conversation(ws.id);
      gateway.failWith('recipient is not on WhatsApp');
      const res = await call(t, caller, 'post', `/api/conversations/${conversation.id}/messages`, { body: 'hello?' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'recipient is not on WhatsApp' });
      gateway.failWith(new Error('ECONNRESET internal detail'));
      const generic = await call(t, caller, 'post', `/api/conversations/${conversation.id}/messages`, { body: 'again' });
      expect(generic.body).toEqual({ error: 'the channel failed to send the message' });
      const page = await call(t, caller, 'get', `/api/conversations/${conversation.id}/messages`);
      expect(page.body.messages.slice(0, 2).map((m: { status: string; error: string }) => [m.status, m.error])).toEqual([
        ['failed', 'the channel failed to send the message'],
        ['failed', 'recipient is not on WhatsApp'],
      ]);
    });
  });

  describe('status', () => {
    it('moves only forward: pending → sent → delivered → read, failed only before delivery', async () => {
      const { ws, caller } = await setup();
      gateway.connect(ws.id);
      const statuses = t.app.get(MessageStatusService);
      const conversation = await inbox.conversation(ws.id);
      const sent = await call(t, caller, 'post', `/api/conversations/${conversation.id}/messages`, { body: 'track me' });
      const id = sent.body.chat_message_id as string;
      const status = async () => (await t.dataSource.query('SELECT status, error FROM messages WHERE id = $1', [sent.body.id]))[0];

      expect(await statuses.updateStatus(ws.id, 'scan', id, 'read')).toMatchObject({ status: 'read' });
      expect(await statuses.updateStatus(ws.id, 'scan', id, 'delivered')).toBeNull();
      expect(await statuses.updateStatus(ws.id, 'scan', id, 'failed', 'too late')).toBeNull();
      expect(await statuses.updateStatus(ws.id, 'scan', id, 'sent')).toBeNull();
      expect(await status()).toEqual({ status: 'read', error: null });

      const other = await call(t, caller, 'post', `/api/conversations/${conversation.id}/messages`, { body: 'fails later' });
      const otherId = other.body.chat_message_id as string;
      expect(await statuses.updateStatus(ws.id, 'scan', otherId, 'failed', 'rejected by WhatsApp')).toMatchObject({
        status: 'failed',
        error: 'rejected by WhatsApp',
      });
      expect(await statuses.updateStatus(ws.id, 'scan', otherId, 'delivered')).toBeNull();
      // Another workspace, or another channel, cannot touch it.
      const stranger = await t.factories.workspace();
      expect(await statuses.updateStatus(stranger.id, 'scan', id, 'read')).toBeNull();
      expect(await statuses.updateStatus(ws.id, 'meta', otherId, 'read')).toBeNull();
    });
  });

  describe('start a conversation', () => {
    it('creates the conversation and its contact and sends the first message', async () => {
      const { ws, caller } = await setup();
      gateway.connect(ws.id);
      const phone = randomPhone();
      const res = await call(t, caller, 'post', '/api/conversations', { phone: `+${phone}`, body: 'Hi from the API' });
      expect(res.status).toBe(201);
      expect(res.body.conversation).toMatchObject({
        channel: 'scan',
        chat_jid: `${phone}@s.whatsapp.net`,
        chat_phone: phone,
        is_group: false,
        last_message_preview: 'Hi from the API',
        unread_count: 0,
      });
      expect(res.body.message).toMatchObject({ conversation_id: res.body.conversation.id, direction: 'outbound', status: 'sent', content: 'Hi from the API' });
      const [contact] = await t.dataSource.query('SELECT id, phone FROM contacts WHERE workspace_id = $1', [ws.id]);
      expect(contact).toEqual({ id: res.body.conversation.contact_id, phone });

      // The same number again reuses the conversation; so does the reply arriving from the phone.
      const again = await call(t, caller, 'post', '/api/conversations', { phone, body: 'second' });
      expect(again.status).toBe(201);
      expect(again.body.conversation.id).toBe(res.body.conversation.id);
      const reply = await inbox.message(ws.id, { phone });
      expect(reply.conversation.id).toBe(res.body.conversation.id);
    });

    it('answers 502 with the conversation when the channel fails after it was created', async () => {
      const { ws, caller } = await setup();
      gateway.connect(ws.id);
      gateway.failWith('number rejected by the channel');
      const phone = randomPhone();
      const res = await call(t, caller, 'post', '/api/conversations', { phone, body: 'hello' });
      expect(res.status).toBe(502);
      expect(res.body.error).toBe('number rejected by the channel');
      expect(res.body.conversation).toMatchObject({ chat_phone: phone, chat_jid: `${phone}@s.whatsapp.net` });
      const stored = await call(t, caller, 'get', `/api/conversations/${res.body.conversation.id}/messages`);
      expect(stored.body.messages).toEqual([expect.objectContaining({ status: 'failed', error: 'number rejected by the channel' })]);
    });

    it('validates input, and answers 409 without a connected channel', async () => {
      const { ws, caller } = await setup();
      const noChannel = await call(t, caller, 'post', '/api/conversations', { phone: randomPhone(), body: 'hello' });
      expect([noChannel.status, noChannel.body]).toEqual([409, { error: 'chat is not connected' }]);
      const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM conversations WHERE workspace_id = $1', [ws.id]);
      expect(row.n).toBe(0);
      gateway.connect(ws.id);
      const noBody = await call(t, caller, 'post', '/api/conversations', { phone: randomPhone(), body: ' ' });
      expect([noBody.status, noBody.body.error]).toEqual([400, 'message body is required']);
      const huge = await call(t, caller, 'post', '/api/conversations', { phone: randomPhone(), body: 'x'.repeat(1_000_000) });
      expect([huge.status, huge.body.error]).toEqual([400, 'body must be shorter than or equal to 65536 characters']);
      for (const phone of [undefined, '', 'call me', '12', '+1 234 567 890 123 456', '015553330001']) {
        const bad = await call(t, caller, 'post', '/api/conversations', { phone, body: 'hello' });
        expect([phone, bad.status, bad.body.error]).toEqual([phone, 400, 'invalid phone number']);
      }
    });
  });
});
