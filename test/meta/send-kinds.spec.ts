import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callback, contact, messagesChange, textMessage, wamid } from '../fakes/graph-api/index.js';
import { base64, oggOpus, webp } from './media-samples.js';
import { connectedWorkspace, createMetaTestApp, deliverAndSettle, type MetaTestApp, metaMessages } from './meta-support.js';
import { sendHelpers } from './send-support.js';

type Json = Record<string, unknown>;

/** Every kind sent through the Cloud API: the exact Graph API request, what is stored, and what is refused before anything is. */
describe('sending every kind through the Cloud API', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    // Room for files over the Cloud API's limits in one JSON body.
    m = await createMetaTestApp({ env: { BODY_LIMIT: '20mb' } });
  });
  afterAll(async () => {
    await m?.close();
  });

  const { bearer, post, lastSent, conversationWith } = sendHelpers(() => m);

  it('sends video, audio, a voice note and stickers by link and by upload, as the provider documents them', async () => {
    const w = await connectedWorkspace(m);
    const { conversationId } = await conversationWith(w);
    const voice = oggOpus(7);
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(500, 9)]);
    const sticker = webp(40 * 1024);
    const animated = webp(300 * 1024, true);

    const video = await post(w, conversationId, {
      type: 'video',
      media: { url: 'https://cdn.example.com/tour.mp4', mime_type: 'video/mp4' },
      caption: 'The tour',
    });
    expect(video.status).toBe(201);
    expect(video.body).toEqual(expect.objectContaining({ kind: 'video', message_type: 'document', content: 'The tour', status: 'sent' }));
    expect(lastSent(w)).toEqual({ type: 'video', video: { link: 'https://cdn.example.com/tour.mp4', caption: 'The tour' } });

    const upload = async (body: Json): Promise<{ response: Json; mediaId: string; form: Json }> => {
      const res = await post(w, conversationId, body);
      expect([res.status, res.body.status]).toEqual([201, 'sent']);
      const [request] = m.graph.received({ method: 'POST', path: `/${w.phoneNumberId}/media` }).slice(-1);
      const form = request!.form as Json;
      const stored = [...m.graph.world.media.values()].at(-1)!;
      return { response: res.body as Json, mediaId: stored.id, form };
    };

    const audio = await upload({ type: 'audio', media: { data_base64: base64(mp3), mime_type: 'audio/mpeg', file_name: 'jingle.mp3' }, caption: 'ignored' });
    expect(audio.response).toEqual(
      expect.objectContaining({ kind: 'audio', message_type: 'document', content: '', mime_type: 'audio/mpeg', file_size: mp3.length }),
    );
    expect(lastSent(w)).toEqual({ type: 'audio', audio: { id: audio.mediaId } });

    const note = await upload({ type: 'voice', media: { data_base64: base64(voice), mime_type: 'audio/ogg; codecs=opus' } });
    expect(note.response).toEqual(expect.objectContaining({ kind: 'voice', message_type: 'document', duration_s: 7, mime_type: 'audio/ogg; codecs=opus' }));
    // The provider names the type without its codec; the file goes as it is.
    expect(note.form).toEqual(expect.objectContaining({ type: 'audio/ogg', file: expect.objectContaining({ type: 'audio/ogg', data: voice }) }));
    expect(lastSent(w)).toEqual({ type: 'audio', audio: { id: note.mediaId, voice: true } });

    const still = await upload({ type: 'sticker', media: { data_base64: base64(sticker), mime_type: 'image/webp' } });
    expect(still.response).toEqual(expect.objectContaining({ kind: 'sticker', message_type: 'image' }));
    expect(lastSent(w)).toEqual({ type: 'sticker', sticker: { id: still.mediaId } });
    // An animated sticker may be larger than a static one.
    const moving = await upload({ type: 'sticker', media: { data_base64: base64(animated), mime_type: 'image/webp' } });
    expect(lastSent(w)).toEqual({ type: 'sticker', sticker: { id: moving.mediaId } });

    const kinds = (await metaMessages(m.t, w.workspaceId)).slice(1).map((row) => [row.message_type, row.status]);
    expect(kinds).toEqual([
      ['video', 'sent'],
      ['audio', 'sent'],
      ['voice', 'sent'],
      ['sticker', 'sent'],
      ['sticker', 'sent'],
    ]);
  });

  it("sends a location and contact cards as the provider's objects", async () => {
    const w = await connectedWorkspace(m);
    const { conversationId } = await conversationWith(w);
    const place = await post(w, conversationId, {
      type: 'location',
      location: { latitude: 52.516275, longitude: 13.377704, name: 'Brandenburg Gate', address: 'Pariser Platz, 10117 Berlin' },
    });
    expect(place.status).toBe(201);
    expect(place.body).toEqual(
      expect.objectContaining({
        kind: 'location',
        content: 'Brandenburg Gate, Pariser Platz, 10117 Berlin (52.516275, 13.377704)',
        location: expect.objectContaining({ latitude: 52.516275 }),
      }),
    );
    expect(lastSent(w)).toEqual({
      type: 'location',
      location: { latitude: 52.516275, longitude: 13.377704, name: 'Brandenburg Gate', address: 'Pariser Platz, 10117 Berlin' },
    });

    const bare = await post(w, conversationId, { type: 'location', location: { latitude: -33.856784, longitude: 151.215297 } });
    expect(bare.status).toBe(201);
    expect(lastSent(w)).toEqual({ type: 'location', location: { latitude: -33.856784, longitude: 151.215297 } });

    const cards = await post(w, conversationId, {
      type: 'contacts',
      contacts: [
        { name: 'Ada Lovelace', phones: ['+44 20 7946 0000', '+4915123456789'] },
        { name: 'Support', phones: ['+15551234567'] },
      ],
    });
    expect(cards.status).toBe(201);
    expect(cards.body).toEqual(expect.objectContaining({ kind: 'contacts', content: 'Ada Lovelace: +442079460000, +4915123456789\nSupport: +15551234567' }));
    expect(lastSent(w)).toEqual({
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Ada Lovelace', first_name: 'Ada Lovelace' },
          phones: [
            { phone: '+442079460000', wa_id: '442079460000', type: 'CELL' },
            { phone: '+4915123456789', wa_id: '4915123456789', type: 'CELL' },
          ],
        },
        { name: { formatted_name: 'Support', first_name: 'Support' }, phones: [{ phone: '+15551234567', wa_id: '15551234567', type: 'CELL' }] },
      ],
    });
  });

  it('replies with context naming the quoted message, on any kind', async () => {
    const w = await connectedWorkspace(m);
    const { conversationId, phone, firstWamid } = await conversationWith(w);
    const inbound = wamid();
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [messagesChange(w.phoneNumberId, { contacts: [contact({ phone })], messages: [textMessage({ phone }, 'Is it in stock?', inbound)] })],
      }),
    );
    const rows = await metaMessages(m.t, w.workspaceId);
    const question = rows.find((row) => row.external_id === inbound)!;
    const ours = rows.find((row) => row.external_id === firstWamid)!;
    m.graph.reset();

    const text = await post(w, conversationId, { body: 'Yes, two left', reply_to: question.id });
    expect(text.status).toBe(201);
    expect(text.body).toEqual(expect.objectContaining({ quoted_message_id: inbound, quoted_id: question.id }));
    expect(lastSent(w)).toEqual({ type: 'text', text: { body: 'Yes, two left', preview_url: false }, context: { message_id: inbound } });

    const image = await post(w, conversationId, { type: 'image', media: { url: 'https://cdn.example.com/shelf.jpg' }, reply_to: ours.id });
    expect(image.status).toBe(201);
    expect(lastSent(w)).toEqual({ type: 'image', image: { link: 'https://cdn.example.com/shelf.jpg' }, context: { message_id: firstWamid } });
  });

  it('sends a provider template as a reply with the same context, so the stored quote is what the person sees', async () => {
    const w = await connectedWorkspace(m);
    const { conversationId, phone } = await conversationWith(w);
    const inbound = wamid();
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [messagesChange(w.phoneNumberId, { contacts: [contact({ phone })], messages: [textMessage({ phone }, 'Where is my order?', inbound)] })],
      }),
    );
    const question = (await metaMessages(m.t, w.workspaceId)).find((row) => row.external_id === inbound)!;
    m.graph.world.addTemplate(w.wabaId, { name: 'order_status', components: [{ type: 'BODY', text: 'Hi {{1}}, your order ships today.' }] });
    const synced = (await m.t.http().post('/api/templates/sync').set(w.owner)).body as { id: string; name: string }[];
    m.graph.reset();

    const template_id = synced.find((t) => t.name === 'order_status')!.id;
    const reply = await post(w, conversationId, { type: 'template', template_id, parameters: ['Ada'], reply_to: question.id });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual(expect.objectContaining({ content: 'Hi Ada, your order ships today.', quoted_message_id: inbound, quoted_id: question.id }));
    expect(lastSent(w)).toEqual({
      type: 'template',
      template: { name: 'order_status', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] },
      context: { message_id: inbound },
    });
  });

  it("reacts to a message with the provider's reaction, and takes the reaction back with an empty emoji", async () => {
    const w = await connectedWorkspace(m);
    const { conversationId, phone } = await conversationWith(w);
    const inbound = wamid();
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [messagesChange(w.phoneNumberId, { contacts: [contact({ phone })], messages: [textMessage({ phone }, 'Thanks!', inbound)] })],
      }),
    );
    const target = (await metaMessages(m.t, w.workspaceId)).find((row) => row.external_id === inbound)!;
    m.graph.reset();
    const liked = await post(w, conversationId, { reaction: { message_id: target.id, emoji: '❤️' } });
    expect(liked.status).toBe(201);
    expect(liked.body).toEqual(expect.objectContaining({ id: target.id, reactions: [expect.objectContaining({ emoji: '❤️' })] }));
    expect(lastSent(w)).toEqual({ type: 'reaction', reaction: { message_id: inbound, emoji: '❤️' } });
    const undone = await post(w, conversationId, { reaction: { message_id: target.id, emoji: '' } });
    expect([undone.status, undone.body.reactions]).toEqual([201, []]);
    expect(lastSent(w)).toEqual({ type: 'reaction', reaction: { message_id: inbound, emoji: '' } });
    // A reaction is not a message.
    expect((await metaMessages(m.t, w.workspaceId)).length).toBe(2);
  });

  it('cannot delete or edit a message for everyone: the Cloud API has no such call', async () => {
    const w = await connectedWorkspace(m);
    const { conversationId } = await conversationWith(w);
    const sent = (await metaMessages(m.t, w.workspaceId))[0]!;
    const deleted = await m.t.http().delete(`/api/conversations/${conversationId}/messages/${sent.id}`).set(bearer(w));
    expect([deleted.status, deleted.body]).toEqual([400, { error: 'this channel cannot delete messages for everyone' }]);
    const edited = await m.t.http().patch(`/api/conversations/${conversationId}/messages/${sent.id}`).set(bearer(w)).send({ body: 'changed' });
    expect([edited.status, edited.body]).toEqual([400, { error: 'this channel cannot edit messages' }]);
    expect(m.graph.sent(w.phoneNumberId)).toEqual([]);
  });
});
