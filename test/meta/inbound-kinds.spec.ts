import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  callback,
  contact,
  inboundMessage,
  interactiveReply,
  mediaMessage,
  messagesChange,
  reactionMessage,
  replyContext,
  textMessage,
  unsupportedMessage,
  wamid,
} from '../fakes/graph-api/index.js';
import {
  type ConnectedWorkspace,
  connectedWorkspace,
  createMetaTestApp,
  deliverAndSettle,
  eventually,
  type MetaTestApp,
  newPhone,
  startConversation,
} from './meta-support.js';

type Json = Record<string, unknown>;

/** Every kind a person sends through the Cloud API, from the provider's own callback shapes, as the inbox shows it. */
describe('cloud inbound kinds', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const bearer = (w: ConnectedWorkspace) => ({ Authorization: `Bearer ${w.key}` });

  /** Delivers `messages` from `phone` in one signed callback and waits until it is processed. */
  async function receive(w: ConnectedWorkspace, phone: string, messages: Json[]): Promise<void> {
    await deliverAndSettle(
      m,
      callback({ wabaId: w.wabaId, changes: [messagesChange(w.phoneNumberId, { contacts: [contact({ phone, name: 'Ada' })], messages })] }),
    );
  }

  /** The API's messages of the person's conversation, oldest first. */
  async function messagesWith(w: ConnectedWorkspace, phone: string): Promise<Json[]> {
    const conversations = (await m.t.http().get('/api/conversations').set(bearer(w))).body as Json[];
    const conversation = conversations.find((c) => c.chat_phone === phone);
    if (!conversation) return [];
    const res = await m.t
      .http()
      .get(`/api/conversations/${String(conversation.id)}/messages`)
      .set(bearer(w));
    // The API pages newest first.
    return (res.body as { messages: Json[] }).messages.reverse();
  }

  const byId = async (w: ConnectedWorkspace, phone: string, id: string): Promise<Json | undefined> =>
    (await messagesWith(w, phone)).find((x) => x.chat_message_id === id);

  it('stores voice notes, audio, video and stickers with their files, and serves them', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 1)]);
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(60, 2)]);
    const mp4 = Buffer.concat([Buffer.from('\0\0\0\x18ftypmp42'), Buffer.alloc(60, 3)]);
    const webp = Buffer.concat([Buffer.from('RIFF\x24\0\0\0WEBPVP8X'), Buffer.alloc(40, 4)]);
    const files = {
      voice: m.graph.world.addMedia({ data: ogg, mimeType: 'audio/ogg; codecs=opus', phoneNumberId: w.phoneNumberId }),
      audio: m.graph.world.addMedia({ data: mp3, mimeType: 'audio/mpeg', phoneNumberId: w.phoneNumberId }),
      video: m.graph.world.addMedia({ data: mp4, mimeType: 'video/mp4', phoneNumberId: w.phoneNumberId }),
      sticker: m.graph.world.addMedia({ data: webp, mimeType: 'image/webp', phoneNumberId: w.phoneNumberId }),
    };
    const ids = { voice: wamid(), audio: wamid(), video: wamid(), sticker: wamid() };
    await receive(w, phone, [
      mediaMessage({ phone }, 'audio', { id: files.voice.id, mimeType: 'audio/ogg; codecs=opus', sha256: files.voice.sha256, voice: true }, ids.voice),
      mediaMessage({ phone }, 'audio', { id: files.audio.id, mimeType: 'audio/mpeg', sha256: files.audio.sha256, voice: false }, ids.audio),
      mediaMessage({ phone }, 'video', { id: files.video.id, mimeType: 'video/mp4', sha256: files.video.sha256, caption: 'Our new shop' }, ids.video),
      mediaMessage({ phone }, 'sticker', { id: files.sticker.id, mimeType: 'image/webp', sha256: files.sticker.sha256, animated: true }, ids.sticker),
    ]);
    const stored = await eventually('every file to be fetched', async () => {
      const list = await messagesWith(w, phone);
      return list.length === 4 && list.every((x) => x.media_url !== '') && list;
    });
    const of = (id: string) => stored.find((x) => x.chat_message_id === id)!;
    expect(of(ids.voice)).toEqual(
      expect.objectContaining({
        kind: 'voice',
        message_type: 'document',
        content: '',
        mime_type: 'audio/ogg; codecs=opus',
        file_size: ogg.length,
        duration_s: 0,
        file_name: '',
      }),
    );
    expect(of(ids.audio)).toEqual(expect.objectContaining({ kind: 'audio', message_type: 'document', mime_type: 'audio/mpeg', file_size: mp3.length }));
    expect(of(ids.video)).toEqual(
      expect.objectContaining({ kind: 'video', message_type: 'document', content: 'Our new shop', mime_type: 'video/mp4', file_size: mp4.length }),
    );
    expect(of(ids.sticker)).toEqual(
      expect.objectContaining({ kind: 'sticker', message_type: 'image', content: '', mime_type: 'image/webp', file_size: webp.length }),
    );
    for (const [kind, file] of [
      ['voice', ogg],
      ['video', mp4],
      ['sticker', webp],
    ] as const) {
      const served = await m.t
        .http()
        .get(String(of(ids[kind]).media_url))
        .set(bearer(w))
        .buffer(true);
      expect([kind, served.status, Buffer.compare(served.body as Buffer, file)]).toEqual([kind, 200, 0]);
    }
  });

  it('stores a location and contact cards with their details and readable content', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const [place, cards] = [wamid(), wamid()];
    await receive(w, phone, [
      inboundMessage(
        { phone },
        'location',
        {
          location: {
            address: '101 Forest Ave, Palo Alto, CA 94301',
            latitude: 37.44221496582,
            longitude: -122.16165924072,
            name: 'Philz Coffee',
            url: 'https://philzcoffee.com/',
          },
        },
        place,
      ),
      inboundMessage(
        { phone },
        'contacts',
        {
          contacts: [
            {
              name: { first_name: 'Lucía', last_name: 'Gómez', formatted_name: 'Lucía Gómez' },
              org: { company: 'Google' },
              phones: [
                { phone: '+1 (983) 555-2319', wa_id: '19835552319', type: 'MOBILE' },
                { phone: '+1 (983) 555-0000', type: 'HOME' },
              ],
            },
            { name: { formatted_name: 'Front desk' }, phones: [{ phone: '+44 20 7946 0000', type: 'WORK' }] },
          ],
        },
        cards,
      ),
    ]);
    expect(await byId(w, phone, place)).toEqual(
      expect.objectContaining({
        kind: 'location',
        message_type: 'text',
        content: 'Philz Coffee, 101 Forest Ave, Palo Alto, CA 94301 (37.442215, -122.161659)\nhttps://philzcoffee.com/',
        location: {
          latitude: 37.44221496582,
          longitude: -122.16165924072,
          name: 'Philz Coffee',
          address: '101 Forest Ave, Palo Alto, CA 94301',
          url: 'https://philzcoffee.com/',
        },
        contacts: null,
      }),
    );
    const contacts = await byId(w, phone, cards);
    expect(contacts).toEqual(
      expect.objectContaining({
        kind: 'contacts',
        message_type: 'text',
        content: 'Lucía Gómez: +19835552319, +19835550000\nFront desk: +442079460000',
        contacts: [
          { name: 'Lucía Gómez', phones: ['19835552319', '19835550000'], vcard: expect.stringContaining('FN:Lucía Gómez') },
          { name: 'Front desk', phones: ['442079460000'], vcard: expect.stringContaining('TEL;type=CELL;type=VOICE;waid=442079460000:+442079460000') },
        ],
      }),
    );
  });

  it('keeps what a reply quotes, linked to the quoted message when the inbox holds it', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const { wamid: ours } = await startConversation(m, w, phone, 'Which size do you need?');
    const [reply, orphan] = [wamid(), wamid()];
    const unknown = wamid();
    await receive(w, phone, [
      { ...textMessage({ phone }, 'Large, please', reply), ...replyContext(ours) },
      { ...textMessage({ phone }, 'About that old one', orphan), ...replyContext(unknown) },
    ]);
    const list = await messagesWith(w, phone);
    const sent = list.find((x) => x.chat_message_id === ours)!;
    expect(list.find((x) => x.chat_message_id === reply)).toEqual(expect.objectContaining({ kind: 'text', quoted_message_id: ours, quoted_id: sent.id }));
    expect(list.find((x) => x.chat_message_id === orphan)).toEqual(expect.objectContaining({ quoted_message_id: unknown, quoted_id: null }));
    expect(sent).toEqual(expect.objectContaining({ quoted_message_id: '', quoted_id: null }));
  });

  it('stores taps on reply buttons, list rows and template quick replies as text with the choice id', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const { wamid: ours } = await startConversation(m, w, phone, 'Pick one');
    const [button, row, quick] = [wamid(), wamid(), wamid()];
    await receive(w, phone, [
      interactiveReply({ phone }, ours, { kind: 'button_reply', id: 'change-button', title: 'Change' }, button),
      interactiveReply({ phone }, ours, { kind: 'list_reply', id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' }, row),
      inboundMessage({ phone }, 'button', { ...replyContext(ours), button: { payload: 'UNSUBSCRIBE_42', text: 'Unsubscribe' } }, quick),
    ]);
    const list = await messagesWith(w, phone);
    const sent = list.find((x) => x.chat_message_id === ours)!;
    expect(list.filter((x) => x.direction === 'inbound').map((x) => [x.kind, x.message_type, x.content, x.quoted_message_id, x.quoted_id])).toEqual([
      ['text', 'text', 'Change', ours, sent.id],
      ['text', 'text', 'Priority Mail Express', ours, sent.id],
      ['text', 'text', 'Unsubscribe', ours, sent.id],
    ]);
    const details: { external_id: string; details: Json }[] = await m.t.dataSource.query(
      `SELECT external_id, details FROM messages WHERE workspace_id = $1 AND direction = 'inbound' ORDER BY timestamp, created_at`,
      [w.workspaceId],
    );
    expect(details.map((d) => [d.external_id, d.details])).toEqual([
      [button, { reply: { id: 'change-button', title: 'Change' } }],
      [row, { reply: { id: 'priority_express', title: 'Priority Mail Express' } }],
      [quick, { reply: { id: 'UNSUBSCRIBE_42', title: 'Unsubscribe' } }],
    ]);
  });

  it('stores what the provider does not pass on as unsupported, and skips what is not a message', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    await receive(w, phone, [
      unsupportedMessage({ phone }, 'poll_creation'),
      unsupportedMessage({ phone }, undefined, { code: 131060, title: 'This message is currently unavailable.', details: 'Message is unavailable.' }),
      unsupportedMessage({ phone }),
      inboundMessage({ phone }, 'order', {
        order: {
          catalog_id: '194836987003835',
          text: '',
          product_items: [{ product_retailer_id: 'di9ozbzfi4', quantity: 1, item_price: 9.99, currency: 'USD' }],
        },
      }),
      inboundMessage({ phone }, 'brand_new_type', { brand_new_type: { x: 1 } }),
      // Not messages: a poll vote, a number change, the first-chat welcome request.
      unsupportedMessage({ phone }, 'poll_update'),
      inboundMessage({ phone }, 'system', { system: { body: 'User A changed from 1 to 2', wa_id: '2', type: 'user_changed_number' } }),
      inboundMessage({ phone }, 'request_welcome'),
    ]);
    const list = await messagesWith(w, phone);
    expect(list.map((x) => [x.kind, x.message_type, x.content])).toEqual([
      ['unsupported', 'text', '[a poll]'],
      ['unsupported', 'text', '[a message that is not available yet]'],
      ['unsupported', 'text', '[a message this app cannot show]'],
      ['unsupported', 'text', '[an order]'],
      ['unsupported', 'text', '[a message this app cannot show]'],
    ]);
  });

  it('attaches reactions to their message, replaces and removes them, and holds one that arrives first', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const { wamid: ours } = await startConversation(m, w, phone, 'Your order shipped');
    const chatJid = `${phone}@s.whatsapp.net`;
    await receive(w, phone, [reactionMessage({ phone }, ours, '👍')]);
    expect((await byId(w, phone, ours))!.reactions).toEqual([{ emoji: '👍', sender_jid: chatJid }]);
    await receive(w, phone, [reactionMessage({ phone }, ours, '❤️')]);
    expect((await byId(w, phone, ours))!.reactions).toEqual([{ emoji: '❤️', sender_jid: chatJid }]);
    await receive(w, phone, [reactionMessage({ phone }, ours, '')]);
    expect((await byId(w, phone, ours))!.reactions).toEqual([]);
    // A reaction is not a message.
    expect((await messagesWith(w, phone)).map((x) => x.chat_message_id)).toEqual([ours]);

    // A reaction to a message that arrives after it waits for it.
    const later = wamid();
    await receive(w, phone, [reactionMessage({ phone }, later, '😂')]);
    await receive(w, phone, [textMessage({ phone }, 'the joke', later)]);
    const joke = await eventually('the reaction to reach its message', async () => {
      const found = await byId(w, phone, later);
      return (found?.reactions as unknown[] | undefined)?.length ? found : false;
    });
    expect(joke.reactions).toEqual([{ emoji: '😂', sender_jid: chatJid }]);
  });

  it('a reaction changes only a message of the reacting person’s own chat, whatever message id it names', async () => {
    const w = await connectedWorkspace(m);
    const [ada, eve] = [newPhone(), newPhone()];
    const { wamid: toAda } = await startConversation(m, w, ada, 'Your order shipped');
    await receive(w, eve, [textMessage({ phone: eve }, 'hello')]);
    await receive(w, eve, [reactionMessage({ phone: eve }, toAda, '👎')]);
    expect((await byId(w, ada, toAda))!.reactions).toEqual([]);
    // Refused at once: it does not wait for a message that will never be of Eve's chat.
    const [pending] = (await m.t.dataSource.query('SELECT count(*)::int AS n FROM pending_message_updates WHERE workspace_id = $1', [w.workspaceId])) as {
      n: number;
    }[];
    expect(pending!.n).toBe(0);
    await receive(w, ada, [reactionMessage({ phone: ada }, toAda, '👍')]);
    expect((await byId(w, ada, toAda))!.reactions).toEqual([{ emoji: '👍', sender_jid: `${ada}@s.whatsapp.net` }]);
  });
});
