import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { WEBHOOK_EVENT_CATALOGUE } from '../../src/modules/webhooks/events/webhook-event.catalogue.js';
import { api, createE2eApp, eventually, link, newWorkspace, sentMessage, type E2eWorkspace } from '../e2e/e2e-support.js';
import type { InboxFactories } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, workspaceCallers } from './conversation-fixtures.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { json, Receiver } from '../webhooks/webhook-support.js';
import { type Caller, call } from './inbox-http.js';

// The last part links a device to the WhatsApp simulator: seconds of curve math on a loaded machine.
jest.setTimeout(60_000);

const NOTE_KEYS = ['author_id', 'author_name', 'body', 'conversation_id', 'created_at', 'id', 'mentions'];

describe('private notes', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  const open: SseClient[] = [];

  beforeAll(async () => {
    ({ t, inbox } = await createInboxTestApp());
  });
  afterEach(() => {
    for (const stream of open.splice(0)) stream.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A workspace with an owner, a write key, a read key and two agents. */
  async function team() {
    const callers = await workspaceCallers(t);
    const ws = callers.ws.id;
    const ana = await t.factories.signedInMember(ws, 'agent');
    const bo = await t.factories.signedInMember(ws, 'agent');
    const { key: readKey } = await t.factories.apiKey(ws, 'read');
    const as = (user: { cookie: string }): Caller => ({ cookie: user.cookie, workspaceId: ws });
    return { ...callers, ana, bo, asAna: as(ana), asBo: as(bo), readCaller: { key: readKey } as Caller };
  }

  it('adds notes and lists them oldest first with their authors; an API key writes as "API"', async () => {
    const { ws, owner, ownerCaller, keyCaller, readCaller, ana, asAna } = await team();
    const conversation = await inbox.conversation(ws.id);
    const path = `/api/conversations/${conversation.id}/notes`;

    const first = await call(t, asAna, 'post', path, { body: '  Called back, refund promised  ', mentions: [owner.id] });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(NOTE_KEYS);
    expect(first.body).toMatchObject({
      conversation_id: conversation.id,
      author_id: ana.id,
      author_name: ana.name,
      body: 'Called back, refund promised',
      mentions: [owner.id],
    });
    const second = await call(t, keyCaller, 'post', path, { body: 'Order #1234 refunded by the shop system' });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ author_id: null, author_name: 'API', mentions: [] });

    for (const caller of [ownerCaller, readCaller, asAna]) {
      const listed = await call(t, caller, 'get', path);
      expect(listed.status).toBe(200);
      expect(listed.body.map((n: { body: string }) => n.body)).toEqual(['Called back, refund promised', 'Order #1234 refunded by the shop system']);
    }
    // A read key reads but does not write.
    expect((await call(t, readCaller, 'post', path, { body: 'x' })).status).toBe(403);
    // The note is no message: the conversation's messages and preview are as before.
    const messages = await call(t, keyCaller, 'get', `/api/conversations/${conversation.id}/messages`);
    expect(messages.body.messages).toHaveLength(1);
    expect((await call(t, keyCaller, 'get', `/api/conversations/${conversation.id}`)).body.last_message_preview).toBe(conversation.lastMessagePreview);
  });

  it('refuses empty and long bodies, and mentions that are not members, with their texts', async () => {
    const { ws, ownerCaller } = await team();
    const outsider = await t.factories.user();
    const conversation = await inbox.conversation(ws.id);
    const path = `/api/conversations/${conversation.id}/notes`;
    for (const [body, error] of [
      [{}, 'note body is required'],
      [{ body: '   ' }, 'note body is required'],
      [{ body: 12 }, 'note body is required'],
      [{ body: 'x'.repeat(10_001) }, 'note body is at most 10000 characters'],
      [{ body: 'hi', mentions: [outsider.id] }, 'mentions must be user ids of members of this workspace'],
      [{ body: 'hi', mentions: ['not-a-uuid'] }, 'mentions must be user ids of members of this workspace'],
      [{ body: 'hi', mentions: 'everyone' }, 'mentions must be user ids of members of this workspace'],
    ] as const) {
      const res = await call(t, ownerCaller, 'post', path, body);
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
    expect((await call(t, ownerCaller, 'post', path, { body: 'x'.repeat(10_000) })).status).toBe(201);
    const malformed = await call(t, ownerCaller, 'post', '/api/conversations/nope/notes', { body: 'x' });
    expect([malformed.status, malformed.body]).toEqual([400, { error: 'invalid conversation id' }]);
    const unknown = await call(t, ownerCaller, 'get', `/api/conversations/${UNKNOWN_ID}/notes`);
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'conversation not found' }]);
  });

  it("an agent neither reads nor writes the notes of a colleague's conversation, nor sees them among mentions", async () => {
    const { ws, ownerCaller, bo, asAna, asBo, ana } = await team();
    const conversation = await inbox.conversation(ws.id);
    const path = `/api/conversations/${conversation.id}/notes`;
    await call(t, ownerCaller, 'post', path, { body: 'for Ana', mentions: [ana.id] }).expect(201);
    expect((await call(t, asAna, 'get', '/api/notes/mentions')).body).toHaveLength(1);

    await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: bo.id }).expect(200);
    for (const [method, body] of [
      ['get', undefined],
      ['post', { body: 'sneaky' }],
    ] as const) {
      const res = await call(t, asAna, method, path, body);
      expect([method, res.status, res.body]).toEqual([method, 404, { error: 'conversation not found' }]);
    }
    expect((await call(t, asAna, 'get', '/api/notes/mentions')).body).toEqual([]);
    expect((await call(t, asBo, 'get', path)).body).toHaveLength(1);
  });

  it('the Mentions view: newest first with the chat name, only for a signed-in member', async () => {
    const { ws, ownerCaller, keyCaller, ana, asAna, bo } = await team();
    const first = await inbox.conversation(ws.id, { chatName: 'Maria Souza' });
    const second = await inbox.conversation(ws.id, { chatName: 'João Lima' });
    await call(t, ownerCaller, 'post', `/api/conversations/${first.id}/notes`, { body: 'one', mentions: [ana.id, bo.id] }).expect(201);
    await call(t, ownerCaller, 'post', `/api/conversations/${second.id}/notes`, { body: 'not for Ana', mentions: [bo.id] }).expect(201);
    await call(t, ownerCaller, 'post', `/api/conversations/${second.id}/notes`, { body: 'two', mentions: [ana.id, ana.id] }).expect(201);

    const mentions = await call(t, asAna, 'get', '/api/notes/mentions');
    expect(mentions.status).toBe(200);
    expect(mentions.body.map((n: { body: string; chat_name: string; conversation_id: string }) => [n.body, n.chat_name, n.conversation_id])).toEqual([
      ['two', second.chatName, second.id],
      ['one', first.chatName, first.id],
    ]);
    expect(mentions.body[0].mentions).toEqual([ana.id]);
    const byKey = await call(t, keyCaller, 'get', '/api/notes/mentions');
    expect([byKey.status, byKey.body]).toEqual([400, { error: 'mentions need a signed-in user' }]);
  });

  it('deletes: the author and admins may, another agent may not', async () => {
    const { ws, ownerCaller, keyCaller, asAna, asBo } = await team();
    const conversation = await inbox.conversation(ws.id);
    const path = `/api/conversations/${conversation.id}/notes`;
    const anas = (await call(t, asAna, 'post', path, { body: "Ana's" }).expect(201)).body;
    const keys = (await call(t, keyCaller, 'post', path, { body: "the key's" }).expect(201)).body;

    const refused = await call(t, asBo, 'delete', `${path}/${anas.id}`);
    expect([refused.status, refused.body]).toEqual([403, { error: 'only its author or an admin can delete a note' }]);
    expect((await call(t, keyCaller, 'delete', `${path}/${anas.id}`)).status).toBe(403);
    expect((await call(t, asAna, 'delete', `${path}/${anas.id}`)).body).toEqual({ ok: true });
    const again = await call(t, asAna, 'delete', `${path}/${anas.id}`);
    expect([again.status, again.body]).toEqual([404, { error: 'note not found' }]);
    expect((await call(t, keyCaller, 'delete', `${path}/${keys.id}`)).body).toEqual({ ok: true });
    const bad = await call(t, ownerCaller, 'delete', `${path}/not-an-id`);
    expect([bad.status, bad.body]).toEqual([400, { error: 'invalid note id' }]);
    // A note of another conversation is not found under this one.
    const other = await inbox.conversation(ws.id);
    const elsewhere = (await call(t, ownerCaller, 'post', `/api/conversations/${other.id}/notes`, { body: 'there' }).expect(201)).body;
    expect((await call(t, ownerCaller, 'delete', `${path}/${elsewhere.id}`)).status).toBe(404);
    expect((await call(t, ownerCaller, 'get', path)).body).toEqual([]);
  });

  it('publishes note.created to the streams of those who see the conversation', async () => {
    const { ws, ownerCaller, owner, ana, bo } = await team();
    const conversation = await inbox.conversation(ws.id);
    const base = `${await listenUrl(t.app)}/api/events`;
    const streams = await Promise.all([owner, ana, bo].map((user) => openSse(base, { Cookie: user.cookie, 'X-Tenant-ID': ws.id })));
    open.push(...streams);
    for (const stream of streams) await stream.waitFor('the stream to open', (c) => c.comments.includes(' connected'));
    const [ownerStream, anaStream, boStream] = streams as [SseClient, SseClient, SseClient];

    await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: ana.id }).expect(200);
    const note = (await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/notes`, { body: 'heads up', mentions: [ana.id] }).expect(201)).body;
    for (const stream of [ownerStream, anaStream]) {
      await stream.waitFor('note.created', (c) => c.events.some((e) => e.event === 'note.created'));
      expect(dataOf(stream.events.find((e) => e.event === 'note.created')!)).toEqual(note);
    }
    // Bo does not see Ana's conversation: a later event proves his stream went past the note.
    await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: bo.id }).expect(200);
    await boStream.waitFor('the re-assignment', (c) => c.events.some((e) => e.event === 'conversation.updated'));
    expect(boStream.events.some((e) => e.event === 'note.created')).toBe(false);
  });

  it('a deleted user’s notes stay, without an author id', async () => {
    const { ws, asAna, ana, ownerCaller } = await team();
    const conversation = await inbox.conversation(ws.id);
    await call(t, asAna, 'post', `/api/conversations/${conversation.id}/notes`, { body: 'mine' }).expect(201);
    await t.dataSource.query('DELETE FROM users WHERE id = $1', [ana.id]);
    const listed = (await call(t, ownerCaller, 'get', `/api/conversations/${conversation.id}/notes`)).body;
    expect(listed).toMatchObject([{ body: 'mine', author_id: null }]);
  });
});

describe('a private note goes nowhere: not to the chat, not to a webhook', () => {
  const PHONE = '15550100391';
  const CUSTOMER = '4915100391001';
  let sim: WhatsAppSimulator;
  let receiver: Receiver;
  let t: TestApp;
  let ws: E2eWorkspace;

  beforeAll(async () => {
    [sim, receiver] = await Promise.all([WhatsAppSimulator.start(), Receiver.start()]);
    t = await createE2eApp(sim, { env: { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms,200ms' } });
    ws = await newWorkspace(t);
    // Subscribed to every event a scan workspace can have.
    const events = Object.entries(WEBHOOK_EVENT_CATALOGUE)
      .filter(([, entry]) => entry.channel !== 'meta')
      .map(([name]) => name);
    const hook = await t.http().post('/api/webhooks').set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId).send({ url: receiver.url(), events });
    expect(hook.status).toBe(201);
    await link(t, sim, ws, PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
    await receiver?.close();
  });

  /** A message of the workspace by its channel id, once stored (read from the table: this test is about notes, not the list). */
  const storedMessage = (externalId: string): Promise<{ conversation_id: string; status: string }> =>
    eventually(`message ${externalId}`, async () => {
      const rows: { conversation_id: string; status: string }[] = await t.dataSource.query(
        'SELECT conversation_id, status FROM messages WHERE workspace_id = $1 AND external_id = $2',
        [ws.workspaceId, externalId],
      );
      return rows[0];
    });

  it('the simulator receives the reply sent after the note but never the note, and no webhook carries it', async () => {
    const inboundId = await sim.deliverText({ to: PHONE, from: CUSTOMER, name: 'Nora', text: 'where is my parcel?' });
    const conversationId = (await storedMessage(inboundId)).conversation_id;
    const secret = `internal: customer is angry, refund approved ${Date.now()}`;

    const byKey = await api(t, ws, 'post', `/api/conversations/${conversationId}/notes`, { body: secret });
    expect(byKey.status).toBe(201);
    const byOwner = await t
      .http()
      .post(`/api/conversations/${conversationId}/notes`)
      .set('Cookie', ws.owner.cookie)
      .set('X-Tenant-ID', ws.workspaceId)
      .send({ body: `${secret} (owner)` });
    expect(byOwner.status).toBe(201);

    // A reply after the notes: once it has reached the simulator and its webhook, anything the
    // notes had set off would have gone out before it.
    const marker = `Your parcel ships today ${Date.now()}`;
    const sent = await api(t, ws, 'post', `/api/conversations/${conversationId}/messages`, { body: marker });
    expect(sent.status).toBe(201);
    await sim.waitForSent((m) => m.text === marker);
    await receiver.waitFor(1, '/hook');
    const carries = (text: string) => receiver.at('/hook').some((request) => request.body.toString('utf8').includes(text));
    await sentMessage(t, ws, String(conversationId), String(sent.body.id));
    await eventuallyTrue(() => carries(marker));

    expect(sim.sent(PHONE).map((m) => m.text)).toEqual([marker]);
    expect(sim.sent().some((m) => JSON.stringify(m.message).includes('refund approved'))).toBe(false);
    expect(receiver.at('/hook').map((request) => json(request)).length).toBeGreaterThan(0);
    expect(carries('refund approved')).toBe(false);
    const stored: { n: number }[] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1 AND position(convert_to('refund approved', 'UTF8') IN body) > 0`,
      [ws.workspaceId],
    );
    expect(stored[0]!.n).toBe(0);
    // The notes are there for the team all the same.
    const notes = await api(t, ws, 'get', `/api/conversations/${conversationId}/notes`);
    expect(notes.body.map((n: { body: string }) => n.body)).toEqual([secret, `${secret} (owner)`]);
  });
});

async function eventuallyTrue(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
