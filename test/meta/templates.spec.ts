import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  callback,
  callbackBytes,
  contact,
  GRAPH_ERRORS,
  messagesChange,
  templateQualityUpdate,
  templateStatusUpdate,
  textMessage,
} from '../fakes/graph-api/index.js';
import {
  type ConnectedWorkspace,
  connectedWorkspace,
  createMetaTestApp,
  deliver,
  deliverAndSettle,
  eventually,
  type MetaTestApp,
  metaMessages,
  newPhone,
  startConversation,
} from './meta-support.js';

interface Template {
  id: string;
  name: string;
  language: string;
  status: string | null;
  quality: string | null;
  provider_id: string | null;
}

/** A Cloud API workspace's templates through the content routes, against the fake Graph API. */
describe('Cloud API templates', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const bearer = (w: ConnectedWorkspace) => ({ Authorization: `Bearer ${w.key}` });
  const sync = (w: ConnectedWorkspace) => m.t.http().post('/api/templates/sync').set(w.owner);
  const list = async (w: ConnectedWorkspace): Promise<Template[]> => (await m.t.http().get('/api/templates').set(bearer(w))).body as Template[];
  const byName = async (w: ConnectedWorkspace, name: string): Promise<Template | undefined> => (await list(w)).find((t) => t.name === name);
  const body = (text: string) => [{ type: 'BODY', text }];

  it("syncs the provider's first page (up to 100) by provider id, and changes in place on the next sync", async () => {
    const w = await connectedWorkspace(m);
    const stored = Array.from({ length: 120 }, (_, i) =>
      m.graph.world.addTemplate(w.wabaId, {
        name: `t_${i}`,
        components: [{ type: 'HEADER', format: 'TEXT', text: 'Hi' }, ...body(`Body {{1}} ${i}`)],
        quality: i === 0 ? 'GREEN' : undefined,
      }),
    );
    m.graph.reset();
    const res = await sync(w);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(100);
    expect(res.body[0]).toEqual({
      id: expect.any(String),
      name: 't_0',
      language: 'en_US',
      category: 'UTILITY',
      body: 'Body {{1}} 0',
      status: 'APPROVED',
      quality: 'GREEN',
      provider_id: stored[0]!.id,
    });
    expect(res.body[1]).toMatchObject({ name: 't_1', quality: null, provider_id: stored[1]!.id });
    expect(m.graph.received().map((r) => [r.method, r.path, r.query.limit, r.token])).toEqual([['GET', `/${w.wabaId}/message_templates`, '100', w.token]]);

    stored[0]!.status = 'PAUSED';
    stored[0]!.quality = 'RED';
    expect((await sync(w)).status).toBe(200);
    const after = await list(w);
    expect(after).toHaveLength(100);
    expect(after.find((t) => t.provider_id === stored[0]!.id)).toMatchObject({ id: res.body[0].id, status: 'PAUSED', quality: 'RED' });
  });

  it('submits a create to the provider for review, with samples for its parameters, and stores its answer', async () => {
    const w = await connectedWorkspace(m);
    m.graph.reset();
    const res = await m.t
      .http()
      .post('/api/templates')
      .set(w.owner)
      .send({ name: 'order_update', language: 'en_US', category: 'utility', body: 'Hi {{1}}, order {{2}} shipped' });
    expect(res.status).toBe(201);
    const [atProvider] = m.graph.world.templates.get(w.wabaId)!;
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      body: 'Hi {{1}}, order {{2}} shipped',
      status: 'PENDING',
      quality: null,
      provider_id: atProvider!.id,
    });
    const [request] = m.graph.received({ method: 'POST', path: `/${w.wabaId}/message_templates` });
    expect([request!.token, request!.json]).toEqual([
      w.token,
      {
        name: 'order_update',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped', example: { body_text: [['sample 1', 'sample 2']] } }],
      },
    ]);
    expect(await list(w)).toEqual([res.body]);

    // Named parameters make a NAMED template.
    const named = await m.t.http().post('/api/templates').set(w.owner).send({ name: 'welcome', body: 'Hi {{first_name}}, welcome to {{shop}}' });
    expect(named.status).toBe(201);
    expect(m.graph.received({ method: 'POST', path: `/${w.wabaId}/message_templates` })[1]!.json).toEqual({
      name: 'welcome',
      language: 'en',
      category: 'UTILITY',
      parameter_format: 'NAMED',
      components: [
        {
          type: 'BODY',
          text: 'Hi {{first_name}}, welcome to {{shop}}',
          example: {
            body_text_named_params: [
              { param_name: 'first_name', example: 'sample first_name' },
              { param_name: 'shop', example: 'sample shop' },
            ],
          },
        },
      ],
    });
  });

  it("answers the provider's refusal with 502, its exact text and fields, and stores nothing", async () => {
    const w = await connectedWorkspace(m);
    m.graph.world.addTemplate(w.wabaId, { name: 'welcome' });
    const exists = await m.t.http().post('/api/templates').set(w.owner).send({ name: 'welcome', language: 'en_US', body: 'Hello' });
    expect([exists.status, exists.body]).toEqual([
      502,
      {
        error: 'provider rejected the template request: There is already English (US) content for this template. You can create a new template and try again.',
        provider_code: 100,
        provider_subcode: 2388024,
        provider_title: 'Message template already exists',
      },
    ]);
    const badName = await m.t.http().post('/api/templates').set(w.owner).send({ name: 'Order Update', body: 'Hello' });
    expect([badName.status, badName.body]).toEqual([
      502,
      { error: 'provider rejected the template request: (#100) Invalid parameter', provider_code: 100, provider_subcode: 2388042 },
    ]);
    expect(await list(w)).toEqual([]);

    m.graph.failNext({ method: 'GET', path: `/${w.wabaId}/message_templates` }, GRAPH_ERRORS.rateLimited);
    const limited = await sync(w);
    expect([limited.status, limited.body]).toEqual([
      502,
      { error: 'provider rejected the template request: (#130429) Rate limit hit', provider_code: 130429, provider_title: 'Rate limit hit' },
    ]);
    m.graph.answerNext({ path: `/${w.wabaId}/message_templates` }, 502, '<html>Bad Gateway</html>');
    const garbled = await sync(w);
    expect([garbled.status, garbled.body]).toEqual([
      502,
      { error: 'provider rejected the template request: the provider answered HTTP 502 without an error object' },
    ]);
    expect(await list(w)).toEqual([]);
    // No answer at all is a dependency that is down (503), not a refusal.
    m.graph.dropNext({ path: `/${w.wabaId}/message_templates` });
    const unreachable = await m.t.http().post('/api/templates').set(w.owner).send({ name: 'order_update', language: 'en_US', body: 'Hello' });
    expect([unreachable.status, unreachable.body]).toEqual([503, { error: 'the provider could not be reached' }]);
    expect(await list(w)).toEqual([]);
  });

  it('deletes one language at the provider by name and id, keeps the template when the provider refuses, and lets go of one the provider no longer has', async () => {
    const w = await connectedWorkspace(m);
    const english = m.graph.world.addTemplate(w.wabaId, { name: 'bye' });
    const german = m.graph.world.addTemplate(w.wabaId, { name: 'bye', language: 'de' });
    const gone = m.graph.world.addTemplate(w.wabaId, { name: 'gone' });
    const synced = (await sync(w)).body as Template[];
    const idOf = (providerId: string) => synced.find((t) => t.provider_id === providerId)!.id;
    m.graph.reset();

    const deleted = await m.t
      .http()
      .delete(`/api/templates/${idOf(english.id)}`)
      .set(w.owner);
    expect([deleted.status, deleted.body]).toEqual([200, { ok: true }]);
    expect(m.graph.received({ method: 'DELETE' }).map((r) => [r.path, r.query, r.token])).toEqual([
      [`/${w.wabaId}/message_templates`, { name: 'bye', hsm_id: english.id }, w.token],
    ]);
    expect(m.graph.world.templates.get(w.wabaId)!.map((t) => t.id)).toEqual([german.id, gone.id]);

    m.graph.failNext({ method: 'DELETE' }, GRAPH_ERRORS.rateLimited);
    const refused = await m.t
      .http()
      .delete(`/api/templates/${idOf(german.id)}`)
      .set(w.owner);
    expect([refused.status, refused.body]).toEqual([
      502,
      { error: 'provider rejected the template request: (#130429) Rate limit hit', provider_code: 130429, provider_title: 'Rate limit hit' },
    ]);
    expect((await list(w)).map((t) => t.provider_id).sort()).toEqual([german.id, gone.id].sort());

    // Deleted in WhatsApp Manager meanwhile: the provider refuses the delete, and the inbox lets go of it.
    m.graph.world.templates.set(w.wabaId, [german]);
    expect(
      (
        await m.t
          .http()
          .delete(`/api/templates/${idOf(gone.id)}`)
          .set(w.owner)
      ).body,
    ).toEqual({ ok: true });
    expect((await list(w)).map((t) => t.provider_id)).toEqual([german.id]);
  });

  it('applies status and quality updates from a signed callback to every workspace with a number of the WABA', async () => {
    const w = await connectedWorkspace(m);
    const sibling = await connectedWorkspace(m, { wabaId: w.wabaId });
    const created = (await m.t.http().post('/api/templates').set(w.owner).send({ name: 'order_update', language: 'en_US', body: 'Hi {{1}}' })).body as Template;
    await sync(sibling);
    expect(await byName(sibling, 'order_update')).toMatchObject({ status: 'PENDING', quality: null, provider_id: created.provider_id });

    await deliverAndSettle(
      m,
      callback({ wabaId: w.wabaId, time: 1767225600, changes: [templateStatusUpdate({ id: created.provider_id!, name: 'order_update', event: 'APPROVED' })] }),
    );
    for (const workspace of [w, sibling]) expect(await byName(workspace, 'order_update')).toMatchObject({ status: 'APPROVED', quality: null });
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [templateQualityUpdate({ id: created.provider_id!, name: 'order_update', previous: 'UNKNOWN', quality: 'YELLOW' })],
      }),
    );
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [templateStatusUpdate({ id: created.provider_id!, name: 'order_update', event: 'PAUSED', reason: 'LOW_QUALITY' })],
      }),
    );
    for (const workspace of [w, sibling])
      expect(await byName(workspace, 'order_update')).toMatchObject({ id: expect.any(String), status: 'PAUSED', quality: 'YELLOW' });
    // Template ids arrive as JSON numbers: one past 2^53 is still matched exactly.
    const big = m.graph.world.addTemplate(w.wabaId, { id: '1234567890123456789', name: 'big_id', status: 'PENDING' });
    await sync(w);
    const raw = callbackBytes(callback({ wabaId: w.wabaId, changes: [templateStatusUpdate({ id: 7, name: 'big_id', event: 'REJECTED' })] }));
    await deliverAndSettle(m, Buffer.from(raw.toString('utf8').replace('"message_template_id":7', `"message_template_id":${big.id}`)));
    expect(await byName(w, 'big_id')).toMatchObject({ provider_id: big.id, status: 'REJECTED' });
    // An update for a template nobody stored changes nothing (the next sync brings it).
    await deliverAndSettle(m, callback({ wabaId: w.wabaId, changes: [templateStatusUpdate({ id: '999999999', name: 'unknown', event: 'APPROVED' })] }));
    expect(await list(w)).toHaveLength(2);
  });

  it('sends a template on a Cloud API conversation by name, with its body parameters (named ones by name)', async () => {
    const w = await connectedWorkspace(m);
    m.graph.world.addTemplate(w.wabaId, { name: 'order_shipped', components: body('Hello {{1}}, order {{2}} has shipped.') });
    m.graph.world.addTemplate(w.wabaId, { name: 'welcome', language: 'de', components: body('Hallo {{first_name}}!') });
    await sync(w);
    const phone = newPhone();
    const { conversationId } = await startConversation(m, w, phone);
    m.graph.reset();
    const send = (name: string, parameters: string[]) =>
      byName(w, name).then((t) =>
        m.t.http().post(`/api/conversations/${conversationId}/messages`).set(bearer(w)).send({ type: 'template', template_id: t!.id, parameters }),
      );

    const positional = await send('order_shipped', ['Ada', 'A-7']);
    expect(positional.status).toBe(201);
    expect(positional.body).toMatchObject({
      direction: 'outbound',
      message_type: 'text',
      content: 'Hello Ada, order A-7 has shipped.',
      status: 'sent',
      chat_message_id: expect.stringMatching(/^wamid\./),
    });
    const named = await send('welcome', ['Ada']);
    expect([named.status, named.body.content]).toEqual([201, 'Hallo Ada!']);
    expect(m.graph.sent(w.phoneNumberId)).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: phone,
        type: 'template',
        template: {
          name: 'order_shipped',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ada' },
                { type: 'text', text: 'A-7' },
              ],
            },
          ],
        },
      },
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: phone,
        type: 'template',
        template: {
          name: 'welcome',
          language: { code: 'de' },
          components: [{ type: 'body', parameters: [{ type: 'text', parameter_name: 'first_name', text: 'Ada' }] }],
        },
      },
    ]);

    // The provider's refusal is the send's 500 with its fields; the message is stored failed.
    m.graph.failNext({ method: 'POST', path: `/${w.phoneNumberId}/messages` }, GRAPH_ERRORS.templateParameters);
    const refused = await send('order_shipped', ['Ada', 'A-8']);
    expect([refused.status, refused.body]).toEqual([
      500,
      {
        error: '(#132000) Number of parameters does not match the expected number of params',
        provider_code: 132000,
        provider_title: 'Number of parameters does not match',
      },
    ]);
    expect((await metaMessages(m.t, w.workspaceId)).at(-1)).toMatchObject({ content: 'Hello Ada, order A-8 has shipped.', status: 'failed' });
  });

  it('runs a reply_template automation on a Cloud API conversation', async () => {
    const w = await connectedWorkspace(m);
    m.graph.world.addTemplate(w.wabaId, { name: 'order_status', components: body('Hi {{1}}, we are on it.') });
    const [template] = (await sync(w)).body as Template[];
    const automation = await m.t
      .http()
      .post('/api/automations')
      .set(w.owner)
      .send({
        name: 'Order questions',
        trigger: 'message.inbound',
        conditions: [{ field: 'content', op: 'contains', value: 'order' }],
        actions: [{ type: 'reply_template', template_id: template!.id, parameters: ['there'] }],
      });
    expect(automation.status).toBe(201);
    m.graph.reset();
    const phone = newPhone();
    await deliver(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [messagesChange(w.phoneNumberId, { contacts: [contact({ phone })], messages: [textMessage({ phone }, 'Where is my order?')] })],
      }),
    );
    const [sent] = await eventually('the automated reply', async () => m.graph.sent(w.phoneNumberId).length > 0 && m.graph.sent(w.phoneNumberId));
    expect(sent).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'template',
      template: { name: 'order_status', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'there' }] }] },
    });
    const reply = await eventually('the reply stored as sent', async () =>
      (await metaMessages(m.t, w.workspaceId)).find((x) => x.direction === 'outbound' && x.status === 'sent'),
    );
    expect(reply.content).toBe('Hi there, we are on it.');
  });

  it('answers 409 chat is not connected once the provider refused the token, until the settings are saved again', async () => {
    const w = await connectedWorkspace(m);
    m.graph.world.revoke(w.token);
    const refused = await sync(w);
    expect([refused.status, refused.body]).toEqual([
      502,
      { error: 'provider rejected the template request: Invalid OAuth access token - Cannot parse access token', provider_code: 190 },
    ]);
    const next = await sync(w);
    expect([next.status, next.body]).toEqual([409, { error: 'chat is not connected' }]);
    const create = await m.t.http().post('/api/templates').set(w.owner).send({ name: 'later', body: 'Hi' });
    expect([create.status, create.body]).toEqual([409, { error: 'chat is not connected' }]);

    m.graph.world.grant(w.token, w.phoneNumberId, w.wabaId);
    expect((await m.t.http().put('/api/meta/settings').set(w.owner).send({ phone_number_id: w.phoneNumberId, waba_id: w.wabaId })).body.connected).toBe(true);
    expect((await sync(w)).status).toBe(200);
  });
});
