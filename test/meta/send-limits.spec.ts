import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLOUD_MEDIA_LIMITS } from '../../src/modules/meta/sending/meta-media-limits.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { base64, png, webp } from './media-samples.js';
import { type ConnectedWorkspace, connectedWorkspace, createMetaTestApp, type MetaTestApp } from './meta-support.js';
import { sendHelpers } from './send-support.js';

/** Template header and button parameters, and the Cloud API's file limits, against the fake Graph API. */
describe('template extras and file limits on the Cloud API', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    // Room for files over the Cloud API's limits in one JSON body.
    m = await createMetaTestApp({ env: { BODY_LIMIT: '20mb' } });
  });
  afterAll(async () => {
    await m?.close();
  });

  const { post, lastSent, refused } = sendHelpers(() => m);
  const conversationWith = async (w: ConnectedWorkspace): Promise<string> => (await sendHelpers(() => m).conversationWith(w)).conversationId;

  it("sends a template's header and button parameters as its components", async () => {
    const w = await connectedWorkspace(m);
    const conversationId = await conversationWith(w);
    m.graph.world.addTemplate(w.wabaId, {
      name: 'order_update',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Hi {{1}}, your order is on its way.' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'URL', text: 'Track', url: 'https://shop.example.com/track/{{1}}' },
            { type: 'QUICK_REPLY', text: 'Stop promotions' },
          ],
        },
      ],
    });
    m.graph.world.addTemplate(w.wabaId, {
      name: 'invoice_ready',
      components: [
        { type: 'HEADER', format: 'DOCUMENT' },
        { type: 'BODY', text: 'Your invoice is attached.' },
        { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'SAVE10' }] },
      ],
    });
    m.graph.world.addTemplate(w.wabaId, {
      name: 'greeting',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
        { type: 'BODY', text: 'Welcome!' },
      ],
    });
    const synced = (await m.t.http().post('/api/templates/sync').set(w.owner)).body as { id: string; name: string }[];
    const idOf = (name: string) => synced.find((t) => t.name === name)!.id;
    m.graph.reset();

    const order = await post(w, conversationId, {
      type: 'template',
      template_id: idOf('order_update'),
      parameters: ['Ada'],
      header: { type: 'image', media: { url: 'https://cdn.example.com/parcel.png', mime_type: 'image/png' } },
      buttons: [
        { index: 0, sub_type: 'url', parameter: '1042' },
        { index: 1, sub_type: 'quick_reply', parameter: 'STOP_PROMOS' },
      ],
    });
    expect([order.status, order.body.content, order.body.kind]).toEqual([201, 'Hi Ada, your order is on its way.', 'text']);
    expect(lastSent(w)).toEqual({
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/parcel.png' } }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '1042' }] },
          { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'STOP_PROMOS' }] },
        ],
      },
    });

    const pdf = Buffer.from('%PDF-1.7 invoice 1042');
    const invoice = await post(w, conversationId, {
      type: 'template',
      template_id: idOf('invoice_ready'),
      header: { type: 'document', media: { data_base64: base64(pdf), mime_type: 'application/pdf', file_name: 'invoice-1042.pdf' } },
      buttons: [{ index: 0, sub_type: 'copy_code', parameter: 'SAVE10' }],
    });
    expect(invoice.status).toBe(201);
    const uploaded = [...m.graph.world.media.values()].find((file) => file.data.equals(pdf))!;
    expect(lastSent(w)).toEqual({
      type: 'template',
      template: {
        name: 'invoice_ready',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'document', document: { id: uploaded.id, filename: 'invoice-1042.pdf' } }] },
          { type: 'button', sub_type: 'copy_code', index: '0', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE10' }] },
        ],
      },
    });

    const greeting = await post(w, conversationId, { type: 'template', template_id: idOf('greeting'), header: { type: 'text', text: 'Ada' } });
    expect(greeting.status).toBe(201);
    expect(lastSent(w)).toEqual({
      type: 'template',
      template: { name: 'greeting', language: { code: 'en_US' }, components: [{ type: 'header', parameters: [{ type: 'text', text: 'Ada' }] }] },
    });

    // A header the template needs but the send leaves out: the provider's own refusal.
    const missing = await post(w, conversationId, { type: 'template', template_id: idOf('greeting') });
    expect([missing.status, missing.body.provider_code]).toEqual([500, 132000]);

    await refused(
      w,
      conversationId,
      { type: 'template', template_id: idOf('greeting'), header: { type: 'text', text: '  ' } },
      'header.text is required for a text header',
    );
    await refused(
      w,
      conversationId,
      { type: 'template', template_id: idOf('order_update'), header: { type: 'image' } },
      'header.media is required for an image header',
    );
    await refused(
      w,
      conversationId,
      {
        type: 'template',
        template_id: idOf('order_update'),
        header: { type: 'image', media: { url: 'https://cdn.example.com/a.png', data_base64: 'AAAA', mime_type: 'image/png' } },
      },
      'header.media needs exactly one of url and data_base64',
    );
    await refused(
      w,
      conversationId,
      {
        type: 'template',
        template_id: idOf('order_update'),
        buttons: [
          { index: 0, sub_type: 'url', parameter: 'a' },
          { index: 0, sub_type: 'url', parameter: 'b' },
        ],
      },
      "buttons.1.index repeats another button's index: give each button's parameter once",
    );
    await refused(
      w,
      conversationId,
      { type: 'template', template_id: idOf('order_update'), buttons: [{ index: 10, sub_type: 'url', parameter: 'a' }] },
      'buttons.0.index must be an integer from 0 to 9',
    );
    await refused(
      w,
      conversationId,
      {
        type: 'template',
        template_id: idOf('invoice_ready'),
        header: { type: 'document', media: { url: 'https://cdn.example.com/a.docx', mime_type: 'application/msword' } },
      },
      'the Cloud API takes a document header only as application/pdf (got application/msword)',
    );
    await refused(
      w,
      conversationId,
      {
        type: 'template',
        template_id: idOf('order_update'),
        header: { type: 'image', media: { data_base64: base64(png(5 * 1024 * 1024 + 1)), mime_type: 'image/png' } },
      },
      'an image header must be at most 5 MB',
    );
  });

  it("refuses header and button parameters for the workspace's own template", async () => {
    const { workspace, owner, key } = await m.t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const template = await m.t.http().post('/api/templates').set({ Cookie: owner.cookie, 'X-Tenant-ID': workspace.id }).send({ name: 'local', body: 'Hello' });
    expect(template.status).toBe(201);
    const conversation = await new InboxFactories(m.t.app).conversation(workspace.id);
    const res = await m.t
      .http()
      .post(`/api/conversations/${conversation.id}/messages`)
      .set('Authorization', `Bearer ${key}`)
      .send({ type: 'template', template_id: template.body.id, header: { type: 'text', text: 'Hi' } });
    expect([res.status, res.body]).toEqual([400, { error: "header and buttons are parameters of a Cloud API template: this template is the workspace's own" }]);
  });

  it("refuses files over the Cloud API's limits or of types it does not take, before anything is stored", async () => {
    const w = await connectedWorkspace(m);
    const conversationId = await conversationWith(w);
    await refused(
      w,
      conversationId,
      { type: 'image', media: { data_base64: base64(png(5 * 1024 * 1024 + 1)), mime_type: 'image/png' } },
      'an image for the Cloud API must be at most 5 MB',
    );
    await refused(
      w,
      conversationId,
      { type: 'image', media: { url: 'https://cdn.example.com/cat.gif', mime_type: 'image/gif' } },
      'the Cloud API sends an image only as image/jpeg, image/png (got image/gif)',
    );
    await refused(
      w,
      conversationId,
      { type: 'sticker', media: { data_base64: base64(webp(100 * 1024 + 1)), mime_type: 'image/webp' } },
      'a sticker for the Cloud API must be at most 100 KB (500 KB when animated)',
    );
    await refused(
      w,
      conversationId,
      { type: 'audio', media: { url: 'https://cdn.example.com/song.wav', mime_type: 'audio/wav' } },
      'the Cloud API sends an audio file only as audio/aac, audio/amr, audio/mpeg, audio/mp4, audio/ogg (got audio/wav)',
    );
    await refused(
      w,
      conversationId,
      { type: 'video', media: { url: 'https://cdn.example.com/clip.webm', mime_type: 'video/webm' } },
      'the Cloud API sends a video only as video/mp4, video/3gpp (got video/webm)',
    );
    // Right at the limits they go.
    expect((await post(w, conversationId, { type: 'image', media: { data_base64: base64(png(5 * 1024 * 1024)), mime_type: 'image/png' } })).status).toBe(201);
    expect((await post(w, conversationId, { type: 'sticker', media: { data_base64: base64(webp(100 * 1024)), mime_type: 'image/webp' } })).status).toBe(201);
  });

  it("states the Cloud API's file types and sizes, and interactive's channel, in the send routes' OpenAPI", async () => {
    const doc = (await m.t.http().get('/api/openapi.json')).body as {
      paths: Record<string, { post: { responses: Record<string, { description: string }>; requestBody: unknown } }>;
      components: { schemas: Record<string, unknown> };
    };
    const send = doc.paths['/api/conversations/{id}/messages']!.post;
    const start = doc.paths['/api/conversations']!.post;
    // The request schema's branches (one per type), with their descriptions.
    const schemaOf = (op: { requestBody: unknown }): string => {
      const ref = JSON.stringify(op.requestBody).match(/#\/components\/schemas\/(\w+)/)?.[1];
      return JSON.stringify(doc.components.schemas[ref!]);
    };
    for (const [name, op] of [
      ['send', send],
      ['start', start],
    ] as const) {
      const errors = op.responses['400']!.description;
      const branches = schemaOf(op);
      for (const [kind, limit] of Object.entries(CLOUD_MEDIA_LIMITS)) {
        // What the refusals say: the types the provider takes (3gp is 3gpp's alias), the size.
        const types = limit.types?.filter((type) => type !== 'video/3gp').join(', ') ?? null;
        const size = kind === 'document' ? `document's ${limit.shown}` : `${kind} ${limit.shown}`;
        const stated = {
          types: types === null || (errors.includes(`${kind} ${types}`) && branches.includes(types)),
          size: errors.includes(size) && branches.includes(limit.shown),
        };
        expect({ name, kind, ...stated }).toEqual({ name, kind, types: true, size: true });
      }
    }
    expect(send.responses['400']!.description).toContain('`interactive messages need a Cloud API number`');
    expect(schemaOf(send)).toContain('interactive messages need a Cloud API number');
  });
});
