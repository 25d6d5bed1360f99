import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callback, contact, GRAPH_ERRORS, messagesChange, textMessage, wamid } from '../fakes/graph-api/index.js';
import { connectedWorkspace, createMetaTestApp, deliverAndSettle, type MetaTestApp, metaMessages, newPhone, startConversation } from './meta-support.js';

/** The `meta` ChannelGateway against the fake Graph API: what is sent, and how refusals reach the client. */
describe('sending through the Cloud API', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  it('starts a conversation and replies with text, with the workspace token, answering the provider id', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    m.graph.reset();
    const started = await m.t
      .http()
      .post('/api/conversations')
      .set(bearer(w.key))
      .send({ phone: `+${phone}`, body: 'Your order shipped' });
    expect(started.status).toBe(201);
    expect(started.body.conversation).toEqual(expect.objectContaining({ channel: 'meta', chat_jid: `${phone}@s.whatsapp.net`, chat_phone: phone }));
    expect(started.body.message).toEqual(
      expect.objectContaining({ direction: 'outbound', status: 'sent', chat_message_id: expect.stringMatching(/^wamid\./), content: 'Your order shipped' }),
    );
    // Sent as the business number (+1 555-<last 4 of its id>), a jid like the scan channel's own.
    expect(started.body.message.sender_jid).toBe(`1555${w.phoneNumberId.slice(-4)}@s.whatsapp.net`);
    const [request] = m.graph.received({ method: 'POST', path: `/${w.phoneNumberId}/messages` });
    expect(request!.token).toBe(w.token);
    expect(request!.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'text',
      text: { body: 'Your order shipped', preview_url: false },
    });
  });

  it('sends an image by link and a document by upload', async () => {
    const w = await connectedWorkspace(m);
    const { conversationId } = await startConversation(m, w, newPhone());
    m.graph.reset();
    const image = await m.t
      .http()
      .post(`/api/conversations/${conversationId}/messages`)
      .set(bearer(w.key))
      .send({ type: 'image', media: { url: 'https://cdn.example.com/cat.jpg' }, caption: 'A cat' });
    expect(image.status).toBe(201);
    const pdf = Buffer.from('%PDF-1.4 fake invoice');
    const document = await m.t
      .http()
      .post(`/api/conversations/${conversationId}/messages`)
      .set(bearer(w.key))
      .send({ type: 'document', media: { data_base64: pdf.toString('base64'), mime_type: 'application/pdf', file_name: 'invoice.pdf' }, caption: 'Invoice' });
    expect(document.status).toBe(201);
    const [upload] = m.graph.received({ method: 'POST', path: `/${w.phoneNumberId}/media` });
    expect(upload!.form).toEqual({
      messaging_product: 'whatsapp',
      type: 'application/pdf',
      file: { fileName: 'invoice.pdf', type: 'application/pdf', data: pdf },
    });
    const mediaId = [...m.graph.world.media.values()].find((stored) => stored.data.equals(pdf))?.id;
    expect(mediaId).toBeDefined();
    expect(m.graph.sent(w.phoneNumberId)).toEqual([
      expect.objectContaining({ type: 'image', image: { link: 'https://cdn.example.com/cat.jpg', caption: 'A cat' } }),
      expect.objectContaining({ type: 'document', document: { id: mediaId, filename: 'invoice.pdf', caption: 'Invoice' } }),
    ]);
  });

  it('answers a refused send with 500, the provider text and fields, and stores the message as failed', async () => {
    const w = await connectedWorkspace(m);
    const { conversationId } = await startConversation(m, w, newPhone());
    m.graph.failNext({ method: 'POST', path: `/${w.phoneNumberId}/messages` }, GRAPH_ERRORS.notAllowedRecipient);
    const res = await m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w.key)).send({ body: 'hi' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: '(#131030) Recipient phone number not in allowed list',
      provider_code: 131030,
      provider_subcode: 2494010,
      provider_title: 'Recipient not allowed',
    });
    const stored = await metaMessages(m.t, w.workspaceId);
    expect(stored.at(-1)).toEqual(expect.objectContaining({ content: 'hi', status: 'failed', error: '(#131030) Recipient phone number not in allowed list' }));

    // The provider's "slow down" (130429 and friends) is no failure: meta-busy-backoff.spec.ts.
    for (const [error, expected] of [
      [GRAPH_ERRORS.reEngagement, { error: '(#131047) Re-engagement message', provider_code: 131047, provider_title: 'Re-engagement message' }],
    ] as const) {
      m.graph.failNext({ method: 'POST', path: `/${w.phoneNumberId}/messages` }, error);
      const again = await m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w.key)).send({ body: 'again' });
      expect([again.status, again.body]).toEqual([500, expected]);
    }
    m.graph.answerNext({ path: `/${w.phoneNumberId}/messages` }, 503, '<html>Service Unavailable</html>');
    const down = await m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w.key)).send({ body: 'down' });
    expect([down.status, down.body]).toEqual([500, { error: 'the provider answered HTTP 503 without an error object' }]);
    m.graph.dropNext({ method: 'POST', path: `/${w.phoneNumberId}/messages` });
    const unreachable = await m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w.key)).send({ body: 'lost' });
    expect([unreachable.status, unreachable.body]).toEqual([500, { error: 'the provider could not be reached' }]);
    expect((await metaMessages(m.t, w.workspaceId)).at(-1)).toEqual(
      expect.objectContaining({ content: 'lost', status: 'failed', error: 'the provider could not be reached' }),
    );
  });

  it('answers a send error on start-conversation with 502, the conversation and the provider fields', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    m.graph.failNext({ method: 'POST', path: `/${w.phoneNumberId}/messages` }, GRAPH_ERRORS.reEngagement);
    const res = await m.t.http().post('/api/conversations').set(bearer(w.key)).send({ phone, body: 'Are you there?' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      error: '(#131047) Re-engagement message',
      provider_code: 131047,
      provider_title: 'Re-engagement message',
      conversation: expect.objectContaining({ id: expect.any(String), channel: 'meta', chat_phone: phone }),
    });
    const listed = await m.t.http().get(`/api/conversations/${res.body.conversation.id}`).set(bearer(w.key));
    expect(listed.status).toBe(200);
    // A provider that cannot be reached: the same 502 with the reason and no provider fields.
    m.graph.dropNext({ method: 'POST', path: `/${w.phoneNumberId}/messages` });
    const unreachable = await m.t.http().post('/api/conversations').set(bearer(w.key)).send({ phone: newPhone(), body: 'Anyone?' });
    expect([unreachable.status, unreachable.body]).toEqual([
      502,
      { error: 'the provider could not be reached', conversation: expect.objectContaining({ channel: 'meta' }) },
    ]);
  });

  it('disconnects the workspace when the provider refuses its token, until the settings are saved again', async () => {
    const w = await connectedWorkspace(m);
    const { conversationId } = await startConversation(m, w, newPhone());
    m.graph.world.revoke(w.token);
    const res = await m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w.key)).send({ body: 'hi' });
    expect([res.status, res.body]).toEqual([500, { error: 'Invalid OAuth access token - Cannot parse access token', provider_code: 190 }]);
    const settings = await m.t.http().get('/api/meta/settings').set(w.owner);
    expect(settings.body).toEqual(
      expect.objectContaining({ connected: false, token_set: true, error: 'Invalid OAuth access token - Cannot parse access token' }),
    );
    const next = await m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w.key)).send({ body: 'hi' });
    expect([next.status, next.body]).toEqual([409, { error: 'chat is not connected' }]);

    m.graph.world.grant(w.token, w.phoneNumberId, w.wabaId);
    expect((await m.t.http().put('/api/meta/settings').set(w.owner).send({ phone_number_id: w.phoneNumberId, waba_id: w.wabaId })).body.connected).toBe(true);
    expect((await m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w.key)).send({ body: 'back' })).status).toBe(201);
  });

  it('marks a conversation read at the provider with its newest inbound message', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const [older, newer] = [wamid(), wamid()];
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, {
            contacts: [contact({ phone })],
            messages: [textMessage({ phone }, 'one', older, '1767225600'), textMessage({ phone }, 'two', newer, '1767225660')],
          }),
        ],
      }),
    );
    const [conversation] = (await m.t.http().get('/api/conversations').set(bearer(w.key))).body as { id: string }[];
    m.graph.reset();
    const res = await m.t.http().post(`/api/conversations/${conversation!.id}/read`).set(bearer(w.key));
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    const reads = m.graph.received({ method: 'POST', path: `/${w.phoneNumberId}/messages` });
    expect(reads.map((r) => r.json)).toEqual([{ messaging_product: 'whatsapp', status: 'read', message_id: newer }]);
  });

  it('answers 409 chat is not connected for a workspace without a Cloud API number', async () => {
    const { key } = await m.t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const res = await m.t.http().post('/api/conversations').set(bearer(key)).send({ phone: newPhone(), body: 'hi' });
    expect([res.status, res.body]).toEqual([409, { error: 'chat is not connected' }]);
  });
});
