import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waMessageId } from '../../src/modules/chat/driver/wa-message-id.js';
import { scanMessage } from '../chat/inbound-support.js';
import { PNG } from '../support/media-fixtures.js';
import { b64, OWN, type SendChat, type SendKinds, startSendKinds } from './send-kinds-support.js';

/**
 * Replies and reactions through the API and the scan channel's gateway (its sessions recorded):
 * what the channel quotes or reacts to, what the row keeps, and what is refused (another
 * conversation's or workspace's message) with nothing stored.
 */
describe('replying and reacting', () => {
  let k: SendKinds;
  let s: SendKinds['s'];

  beforeAll(async () => {
    k = await startSendKinds();
    ({ s } = k);
  });
  afterAll(async () => {
    await k?.close();
  });

  const chat = (group?: boolean): Promise<SendChat> => k.chat(group);
  const send = (c: SendChat, body: object) => k.send(c, body);
  const sentBy = (ws: string) => k.sentBy(ws);
  const outbound = (ws: string) => k.outbound(ws);
  const stored = (id: string) => k.stored(id);

  it('replies to a message of the conversation: the channel quotes it, the row keeps both ids', async () => {
    const c = await chat(true);
    const inbound = await stored(c.inboundId);
    const reply = await send(c, { body: 'answering this', reply_to: c.inboundId.toUpperCase() });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ quoted_message_id: inbound.external_id, quoted_id: c.inboundId });
    const quoted = { externalId: inbound.external_id, fromMe: false, participant: c.member, type: 'text', content: 'the original' };
    const replySent = await k.sent(reply.body.id);
    expect(sentBy(c.ws)).toEqual([{ type: 'text', body: 'answering this', quoted, messageId: waMessageId(reply.body.id) }]);
    // Our own message, quoted in turn: this number's, no participant.
    const image = await send(c, { type: 'image', media: { data_base64: b64(PNG), mime_type: 'image/png' }, reply_to: reply.body.id });
    expect(image.status).toBe(201);
    await k.sent(image.body.id);
    expect(sentBy(c.ws)[1]).toMatchObject({
      type: 'image',
      quoted: { externalId: replySent.external_id, fromMe: true, participant: null, content: 'answering this' },
    });
  });

  it("refuses a reply_to or a reaction to another conversation's or workspace's message with 404, storing nothing", async () => {
    const c = await chat();
    const other = await chat();
    // Another conversation of the same workspace.
    const elsewhere = scanMessage({ content: 'in another chat' });
    await s.handler.handle(c.ws, { type: 'messages', kind: 'notify', messages: [elsewhere] });
    const [neighbour]: { id: string }[] = await s.t.dataSource.query(`SELECT id FROM messages WHERE workspace_id = $1 AND external_id = $2`, [
      c.ws,
      elsewhere.externalId,
    ]);
    const cases: object[] = [
      { body: 'hi', reply_to: neighbour!.id },
      { reaction: { message_id: neighbour!.id, emoji: '👍' } },
      { body: 'hi', reply_to: other.inboundId },
      { body: 'hi', reply_to: '00000000-0000-4000-8000-000000000000' },
      { reaction: { message_id: other.inboundId, emoji: '👍' } },
      { type: 'reaction', reaction: { message_id: '00000000-0000-4000-8000-000000000000', emoji: '👍' } },
    ];
    for (const body of cases) {
      const res = await send(c, body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 404, error: 'message not found' });
    }
    expect(sentBy(c.ws)).toEqual([]);
    expect(await outbound(c.ws)).toBe(0);
    expect((await stored(other.inboundId)).reactions).toEqual([]);
  });

  it('reacts to a message: the channel gets the reaction, the answer is the message with it, and "" takes it back', async () => {
    const c = await chat();
    // This number's earlier message (its echo) says who it is.
    const echo = scanMessage({ chatJid: c.jid, fromMe: true, senderJid: OWN, content: 'hello from the phone' });
    await s.handler.handle(c.ws, { type: 'messages', kind: 'append', messages: [echo] });
    const inbound = await stored(c.inboundId);
    const res = await send(c, { reaction: { message_id: c.inboundId, emoji: '👍🏽' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: c.inboundId, content: 'the original', reactions: [{ emoji: '👍🏽', sender_jid: OWN }] });
    const target = { externalId: inbound.external_id, fromMe: false, participant: null, type: 'text', content: 'the original' };
    const again = await send(c, { type: 'reaction', reaction: { message_id: c.inboundId, emoji: '' } });
    expect([again.status, again.body.reactions]).toEqual([201, []]);
    expect(sentBy(c.ws)).toEqual([
      { type: 'reaction', target, emoji: '👍🏽' },
      { type: 'reaction', target, emoji: '' },
    ]);
    // No message was stored for either.
    expect(await outbound(c.ws)).toBe(1);
    const bad: [object, string][] = [
      [
        { reaction: { message_id: c.inboundId, emoji: 'ok' } },
        'reaction.emoji must be one emoji (a skin tone, a flag or a ZWJ sequence counts as one), or "" to take the reaction back',
      ],
      [
        { reaction: { message_id: c.inboundId, emoji: '👍👍' } },
        'reaction.emoji must be one emoji (a skin tone, a flag or a ZWJ sequence counts as one), or "" to take the reaction back',
      ],
      [{ reaction: { message_id: 'x', emoji: '👍' } }, 'invalid reaction.message_id'],
      [{ type: 'reaction' }, 'reaction is required for reaction messages'],
      [{ type: 'text', body: 'x', reaction: { message_id: c.inboundId, emoji: '👍' } }, 'reaction goes with type reaction (or no type), not text'],
      [{ body: 'x', reaction: { message_id: c.inboundId, emoji: '👍' } }, 'a reaction has no text: send the text as a message of its own'],
    ];
    for (const [body, error] of bad) {
      const r = await send(c, body);
      expect({ body, status: r.status, error: r.body.error }).toEqual({ body, status: 400, error });
    }
    expect(sentBy(c.ws)).toHaveLength(2);
  });
});
