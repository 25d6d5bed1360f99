import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asyncError, callback, contact, messagesChange, status, textMessage, wamid } from '../fakes/graph-api/index.js';
import {
  callbacksSettled,
  connectedWorkspace,
  createMetaTestApp,
  deliver,
  deliverAndSettle,
  eventually,
  graphId,
  messageState,
  type MetaTestApp,
  metaMessages,
  newPhone,
  startConversation,
} from './meta-support.js';

/** What the queue does with a stored callback: routing, ingest, statuses, asynchronous errors. */
describe('provider callback processing', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  it('stores an inbound text as a contact, a conversation and a message', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const id = wamid();
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, { contacts: [contact({ phone, name: 'Ada' })], messages: [textMessage({ phone }, 'Hi there', id, '1767225600')] }),
        ],
      }),
    );
    const list = await m.t.http().get('/api/conversations').set('Authorization', `Bearer ${w.key}`);
    expect(list.body).toEqual([
      expect.objectContaining({
        channel: 'meta',
        chat_jid: `${phone}@s.whatsapp.net`,
        chat_name: 'Ada',
        chat_phone: phone,
        is_group: false,
        unread_count: 1,
        last_message_preview: 'Hi there',
      }),
    ]);
    const messages = await m.t.http().get(`/api/conversations/${list.body[0].id}/messages`).set('Authorization', `Bearer ${w.key}`);
    expect(messages.body.messages).toEqual([
      expect.objectContaining({
        direction: 'inbound',
        chat_message_id: id,
        message_type: 'text',
        content: 'Hi there',
        status: 'delivered',
        timestamp: '2026-01-01T00:00:00.000Z',
        sender_name: 'Ada',
      }),
    ]);
    const contacts = await m.t.http().get('/api/contacts').set('Authorization', `Bearer ${w.key}`);
    expect(contacts.body).toEqual([expect.objectContaining({ phone, bsuid: null, name: 'Ada' })]);
  });

  it('keeps an inbound text whose text or sender name hold NUL characters, without them', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const id = wamid();
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, { contacts: [contact({ phone, name: 'A\u0000da' })], messages: [textMessage({ phone }, 'Hi\u0000there', id)] }),
        ],
      }),
    );
    const list = await m.t.http().get('/api/conversations').set('Authorization', `Bearer ${w.key}`);
    expect(list.body).toEqual([expect.objectContaining({ chat_name: 'Ada', unread_count: 1, last_message_preview: 'Hithere' })]);
    const messages = await m.t.http().get(`/api/conversations/${list.body[0].id}/messages`).set('Authorization', `Bearer ${w.key}`);
    expect(messages.body.messages).toEqual([expect.objectContaining({ chat_message_id: id, content: 'Hithere', sender_name: 'Ada' })]);
  });

  it('keeps an inbound text whose timestamp no date can hold, at the time it arrived', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const ids = [wamid(), wamid(), wamid()];
    const before = Date.now();
    // Beyond JavaScript's dates (year 275760), beyond year 9999, and a sane one beside them.
    const stamps = ['99999999999999999', '253402300800', '1767225600'];
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, {
            contacts: [contact({ phone })],
            messages: ids.map((id, i) => textMessage({ phone }, `odd clock ${i}`, id, stamps[i])),
          }),
        ],
      }),
    );
    const stored: { content: string; timestamp: Date }[] = await m.t.dataSource.query(`SELECT content, timestamp FROM messages WHERE workspace_id = $1`, [
      w.workspaceId,
    ]);
    expect(stored.map((x) => x.content).sort()).toEqual(['odd clock 0', 'odd clock 1', 'odd clock 2']);
    const at = (content: string): number => stored.find((x) => x.content === content)!.timestamp.getTime();
    for (const content of ['odd clock 0', 'odd clock 1']) {
      expect(at(content)).toBeGreaterThanOrEqual(before - 1000);
      expect(at(content)).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(at('odd clock 2')).toBe(Date.UTC(2026, 0, 1));
  });

  it('processes every entry and every change, each for its own workspace', async () => {
    const a = await connectedWorkspace(m);
    const b = await connectedWorkspace(m);
    const [p1, p2, p3] = [newPhone(), newPhone(), newPhone()];
    await deliverAndSettle(
      m,
      callback(
        {
          wabaId: a.wabaId,
          changes: [
            messagesChange(a.phoneNumberId, {
              contacts: [contact({ phone: p1 })],
              messages: [textMessage({ phone: p1 }, 'a1'), textMessage({ phone: p1 }, 'a2')],
            }),
            messagesChange(a.phoneNumberId, { contacts: [contact({ phone: p2 })], messages: [textMessage({ phone: p2 }, 'a3')] }),
          ],
        },
        { wabaId: b.wabaId, changes: [messagesChange(b.phoneNumberId, { contacts: [contact({ phone: p3 })], messages: [textMessage({ phone: p3 }, 'b1')] })] },
      ),
    );
    expect((await metaMessages(m.t, a.workspaceId)).map((x) => x.content).sort()).toEqual(['a1', 'a2', 'a3']);
    expect((await metaMessages(m.t, b.workspaceId)).map((x) => x.content)).toEqual(['b1']);
  });

  it('ignores unknown fields at every level', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const payload = callback({
      wabaId: w.wabaId,
      changes: [
        messagesChange(w.phoneNumberId, {
          contacts: [{ ...contact({ phone }), identity_key_hash: 'DF2lS5v2W6x=' }],
          messages: [
            { ...textMessage({ phone }, 'kept'), context: { from: phone, id: wamid() }, brand_new_field: { deep: [1, 2] } },
            { from: phone, id: wamid(), timestamp: '1767225600', type: 'sticker', sticker: { id: '1', mime_type: 'image/webp' } },
            { from: phone, id: wamid(), timestamp: '1767225600', type: 'location', location: { latitude: 1, longitude: 2 } },
          ],
        }),
      ],
    }) as Record<string, unknown>;
    (payload as { future_top_level?: unknown }).future_top_level = true;
    ((payload.entry as Record<string, unknown>[])[0]!.changes as Record<string, unknown>[]).push(
      { field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } },
      { field: 'messages', value: 'not an object' },
    );
    await deliverAndSettle(m, payload);
    const stored = await metaMessages(m.t, w.workspaceId);
    expect(stored.map((x) => [x.message_type, x.content]).sort()).toEqual([
      ['location', 'Location (1, 2)'],
      ['sticker', ''],
      ['text', 'kept'],
    ]);
  });

  it('acknowledges and drops a payload for a phone_number_id no workspace has', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const res = await deliver(
      m,
      callback({ wabaId: w.wabaId, changes: [messagesChange(graphId(), { contacts: [contact({ phone })], messages: [textMessage({ phone }, 'lost')] })] }),
    );
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    await eventually('the callback to be processed', () => callbacksSettled(m.t));
    const rows: unknown[] = await m.t.dataSource.query(`SELECT 1 FROM messages WHERE content = 'lost'`);
    expect(rows).toEqual([]);
  });

  it('takes a retry of the same bytes without storing anything twice', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const payload = callback({
      wabaId: w.wabaId,
      changes: [messagesChange(w.phoneNumberId, { contacts: [contact({ phone })], messages: [textMessage({ phone }, 'once')] })],
    });
    await deliverAndSettle(m, payload);
    const retry = await deliver(m, payload);
    expect([retry.status, retry.body]).toEqual([200, { ok: true }]);
    // The same message inside other bytes (another callback) is a repeat for the inbox too.
    await deliverAndSettle(m, { ...payload, entry: [...(payload.entry as unknown[]), { id: graphId(), changes: [] }] });
    expect((await metaMessages(m.t, w.workspaceId)).map((x) => x.content)).toEqual(['once']);
    const conversations = await m.t.http().get('/api/conversations').set('Authorization', `Bearer ${w.key}`);
    expect(conversations.body[0].unread_count).toBe(1);
  });

  it('moves a sent message forward only: read, then a late delivered and sent change nothing', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const { wamid: id } = await startConversation(m, w, phone);
    expect(await messageState(m.t, w.workspaceId, id)).toEqual({ status: 'sent', error: null });
    const statuses = (...values: ('sent' | 'delivered' | 'read' | 'failed')[]) =>
      callback({ wabaId: w.wabaId, changes: [messagesChange(w.phoneNumberId, { statuses: values.map((v) => status(id, v, phone)) })] });
    await deliverAndSettle(m, statuses('delivered'));
    expect(await messageState(m.t, w.workspaceId, id)).toEqual({ status: 'delivered', error: null });
    await deliverAndSettle(m, statuses('read'));
    await deliverAndSettle(m, statuses('delivered', 'sent'));
    expect(await messageState(m.t, w.workspaceId, id)).toEqual({ status: 'read', error: null });
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [messagesChange(w.phoneNumberId, { statuses: [status(id, 'failed', phone, [asyncError(131026, 'Message undeliverable')])] })],
      }),
    );
    expect(await messageState(m.t, w.workspaceId, id)).toEqual({ status: 'read', error: null });
  });

  it('marks a message failed with the code and text of an asynchronous error in statuses[].errors', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const { wamid: id } = await startConversation(m, w, phone);
    const error = asyncError(
      131047,
      'Re-engagement message',
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    );
    await deliverAndSettle(m, callback({ wabaId: w.wabaId, changes: [messagesChange(w.phoneNumberId, { statuses: [status(id, 'failed', phone, [error])] })] }));
    expect(await messageState(m.t, w.workspaceId, id)).toEqual({
      status: 'failed',
      error: '131047 Re-engagement message: Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    });
  });

  it('marks messages failed from value.errors: those the change reports and those the error quotes', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const first = await startConversation(m, w, phone, 'one');
    const second = await startConversation(m, w, phone, 'two');
    const third = await startConversation(m, w, phone, 'three');
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, {
            statuses: [status(first.wamid, 'sent', phone)],
            errors: [
              asyncError(
                130429,
                'Rate limit hit',
                'Message failed to send because there were too many messages sent from this phone number in a short period of time',
              ),
            ],
          }),
        ],
      }),
    );
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [messagesChange(w.phoneNumberId, { errors: [asyncError(131000, 'Something went wrong', `Message ${second.wamid} failed to send`)] })],
      }),
    );
    await deliverAndSettle(
      m,
      callback({ wabaId: w.wabaId, changes: [messagesChange(w.phoneNumberId, { errors: [asyncError(131000, 'Something went wrong')] })] }),
    );
    expect(await messageState(m.t, w.workspaceId, first.wamid)).toEqual({
      status: 'failed',
      error: '130429 Rate limit hit: Message failed to send because there were too many messages sent from this phone number in a short period of time',
    });
    expect(await messageState(m.t, w.workspaceId, second.wamid)).toEqual({
      status: 'failed',
      error: `131000 Something went wrong: Message ${second.wamid} failed to send`,
    });
    expect(await messageState(m.t, w.workspaceId, third.wamid)).toEqual({ status: 'sent', error: null });
  });

  it('keys a person the provider names only by business-scoped user id, and keeps one conversation once the phone shows up', async () => {
    const w = await connectedWorkspace(m);
    const bsuid = `US.${graphId()}${graphId()}`;
    const phone = newPhone();
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, { contacts: [contact({ bsuid, name: 'Anon', username: '@anon' })], messages: [textMessage({ bsuid }, 'no phone')] }),
        ],
      }),
    );
    const contacts = await m.t.http().get('/api/contacts').set('Authorization', `Bearer ${w.key}`);
    expect(contacts.body).toEqual([expect.objectContaining({ phone: null, bsuid, name: 'Anon' })]);
    const [chat] = (await m.t.http().get('/api/conversations').set('Authorization', `Bearer ${w.key}`)).body as { id: string }[];
    const reply = (): Promise<{ status: number }> =>
      m.t.http().post(`/api/conversations/${chat!.id}/messages`).set('Authorization', `Bearer ${w.key}`).send({ body: 'hello' });

    // Without a phone number, a reply goes to the business-scoped user id (`recipient`).
    m.graph.reset();
    expect((await reply()).status).toBe(201);
    expect(m.graph.sent(w.phoneNumberId)).toEqual([expect.objectContaining({ recipient: bsuid, recipient_type: 'individual', type: 'text' })]);

    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, { contacts: [contact({ bsuid, phone, name: 'Anon' })], messages: [textMessage({ bsuid, phone }, 'with phone')] }),
        ],
      }),
    );
    const conversations = await m.t.http().get('/api/conversations').set('Authorization', `Bearer ${w.key}`);
    expect(conversations.body).toEqual([expect.objectContaining({ id: chat!.id, chat_jid: `${bsuid}@bsuid`, chat_phone: phone })]);
    const after = await m.t.http().get('/api/contacts').set('Authorization', `Bearer ${w.key}`);
    expect(after.body).toEqual([expect.objectContaining({ phone, bsuid })]);

    // Once the provider shares the phone number, replies use it (as the provider recommends).
    m.graph.reset();
    expect((await reply()).status).toBe(201);
    expect(m.graph.sent(w.phoneNumberId)).toEqual([expect.objectContaining({ to: phone, type: 'text' })]);
  });
});
