import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChannelBusyError, ChannelError, type ChannelConversation } from '../../src/modules/channels/channel-gateway.port.js';
import { retryAfterMsOf } from '../../src/modules/meta/graph/graph-error.js';
import { MetaChannelGateway } from '../../src/modules/meta/sending/meta-channel.gateway.js';
import { busyBackoff } from '../../src/modules/meta/sending/meta-rate-limits.js';
import { GRAPH_ERRORS, type FakeGraphError, type GraphRequest } from '../fakes/graph-api/index.js';
import { connectedWorkspace, createMetaTestApp, type ConnectedWorkspace, eventually, type MetaTestApp, metaMessages } from './meta-support.js';
import { sendHelpers } from './send-support.js';

type Json = Record<string, unknown>;

/** The provider's throttling refusals as it answers them (its error reference); 130429 and 131056 are in GRAPH_ERRORS. */
const APP_CALL_RATE: FakeGraphError = { code: 4, message: '(#4) Application request limit reached', title: 'API Too Many Calls' };
const WABA_RATE: FakeGraphError = { code: 80007, message: '(#80007) Rate limit issues', title: 'Rate limit issues' };
const SPAM_RATE: FakeGraphError = { code: 131048, message: '(#131048) Spam rate limit hit', title: 'Spam rate limit hit' };

/**
 * The Cloud API's "slow down" answers (pair rate 131056, throughput 130429, 80007, 4, spam rate
 * 131048) keep a message pending and retry it after a back-off instead of failing it; any other
 * refusal still fails the send at once.
 */
describe('Cloud API rate limits: back off, never fail', () => {
  let m: MetaTestApp;
  const h = sendHelpers(() => m);
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const sends = (w: ConnectedWorkspace) => ({ method: 'POST', path: `/${w.phoneNumberId}/messages` });
  const textOf = (req: GraphRequest): unknown => ((req.json as Json | undefined)?.text as Json | undefined)?.body;
  const chatOf = (conversationId: string, phone: string): ChannelConversation => ({
    id: conversationId,
    channel: 'meta',
    chatJid: `${phone}@s.whatsapp.net`,
    chatPhone: phone,
    isGroup: false,
  });

  /** Polls the conversation's messages until `messageId` leaves `pending`. */
  const settled = (w: ConnectedWorkspace, conversationId: string, messageId: string): Promise<Json> =>
    eventually(
      `message ${messageId} to leave pending`,
      async () => {
        const res = await m.t.http().get(`/api/conversations/${conversationId}/messages`).set(h.bearer(w));
        const found = (res.body as { messages: Json[] }).messages.find((message) => message.id === messageId);
        return found && found.status !== 'pending' ? found : undefined;
      },
      45_000,
    );

  describe('the gateway', () => {
    it('turns each rate-limit refusal of a send or a template into ChannelBusyError with its scope, back-off, text and fields', async () => {
      const w = await connectedWorkspace(m);
      const { conversationId, phone } = await h.conversationWith(w);
      const gateway = m.t.app.get(MetaChannelGateway);
      const chat = chatOf(conversationId, phone);

      const cases: [FakeGraphError, 'chat' | 'number', number][] = [
        [GRAPH_ERRORS.pairRateLimited, 'chat', 6000],
        [GRAPH_ERRORS.rateLimited, 'number', 2000],
        [WABA_RATE, 'number', 2000],
        [APP_CALL_RATE, 'number', 2000],
        [SPAM_RATE, 'number', 60_000],
      ];
      for (const [refusal, scope, retryAfterMs] of cases) {
        const expected = {
          name: 'ChannelBusyError',
          message: refusal.message,
          scope,
          retryAfterMs,
          details: { provider_code: refusal.code, ...(refusal.title ? { provider_title: refusal.title } : {}) },
        };
        m.graph.failNext(sends(w), refusal);
        const text = gateway.send(w.workspaceId, chat, { type: 'text', body: 'slow down?', messageId: randomUUID() });
        await expect(text).rejects.toBeInstanceOf(ChannelBusyError);
        await expect(text).rejects.toMatchObject(expected);

        m.graph.failNext(sends(w), refusal);
        const template = gateway.sendTemplate(w.workspaceId, chat, {
          name: 'order_update',
          language: 'en_US',
          parameters: [],
          body: 'Your order was updated',
          messageId: randomUUID(),
        });
        await expect(template).rejects.toMatchObject(expected);
      }
    });

    it("prefers the provider's own Retry-After over the table, and knows no other code as a rate limit", () => {
      expect(retryAfterMsOf('9')).toBe(9000);
      expect(retryAfterMsOf(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(30_000);
      expect(retryAfterMsOf('soon')).toBeUndefined();
      expect(busyBackoff(131056, 9000)).toEqual({ scope: 'chat', retryAfterMs: 9000 });
      expect(busyBackoff(131056, undefined)).toEqual({ scope: 'chat', retryAfterMs: 6000 });
      expect(busyBackoff(131026, 9000)).toBeNull();
    });

    it('keeps failing reactions and read receipts on a rate limit, and any other refusal of a send', async () => {
      const w = await connectedWorkspace(m);
      const { conversationId, phone, firstWamid } = await h.conversationWith(w);
      const gateway = m.t.app.get(MetaChannelGateway);
      const chat = chatOf(conversationId, phone);
      const notBusy = (promise: Promise<unknown>) =>
        promise.then(
          () => {
            throw new Error('expected a refusal');
          },
          (error: unknown) => {
            expect(error).toBeInstanceOf(ChannelError);
            expect(error).not.toBeInstanceOf(ChannelBusyError);
            return error as ChannelError;
          },
        );

      m.graph.failNext(sends(w), GRAPH_ERRORS.rateLimited);
      const target = { externalId: firstWamid, fromMe: true, senderJid: '', kind: 'text' as const, content: 'Hello from the shop' };
      expect((await notBusy(gateway.react(w.workspaceId, chat, target, '👍'))).message).toBe('(#130429) Rate limit hit');
      m.graph.failNext(sends(w), GRAPH_ERRORS.pairRateLimited);
      expect((await notBusy(gateway.markRead(w.workspaceId, chat, [firstWamid]))).details).toEqual(expect.objectContaining({ provider_code: 131056 }));
      m.graph.failNext(sends(w), GRAPH_ERRORS.undeliverable);
      const refused = await notBusy(gateway.send(w.workspaceId, chat, { type: 'text', body: 'hi', messageId: randomUUID() }));
      expect([refused.message, refused.details]).toEqual([
        '(#131026) Message Undeliverable',
        { provider_code: 131026, provider_title: 'Message Undeliverable' },
      ]);
    });
  });

  describe('end to end', () => {
    it('a non-rate refusal (131026) still fails the send at once: 500 with the provider fields, stored failed, not retried', async () => {
      const w = await connectedWorkspace(m);
      const { conversationId } = await h.conversationWith(w);
      m.graph.failNext(sends(w), GRAPH_ERRORS.undeliverable);
      const res = await h.post(w, conversationId, { body: 'Are you there?' });
      expect([res.status, res.body]).toEqual([
        500,
        { error: '(#131026) Message Undeliverable', provider_code: 131026, provider_title: 'Message Undeliverable' },
      ]);
      expect((await metaMessages(m.t, w.workspaceId)).at(-1)).toEqual(
        expect.objectContaining({ content: 'Are you there?', status: 'failed', error: '(#131026) Message Undeliverable' }),
      );
      expect(m.graph.received(sends(w)).map(textOf)).toEqual(['Are you there?']);
    });

    it('a pair-rate refusal (131056) answers 201 pending, holds only that chat, and sends it about 6 s later', async () => {
      const w = await connectedWorkspace(m);
      const first = await h.conversationWith(w);
      const other = await h.conversationWith(w);
      m.graph.failNext(sends(w), GRAPH_ERRORS.pairRateLimited);
      const res = await h.post(w, first.conversationId, { body: 'Your parcel is on its way' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(expect.objectContaining({ status: 'pending', content: 'Your parcel is on its way', queue_position: expect.any(Number) }));

      // The pair rate is about one recipient: another chat of the number is sent at once meanwhile.
      const meanwhile = await h.post(w, other.conversationId, { body: 'Your invoice is ready' });
      expect([meanwhile.status, meanwhile.body.status]).toEqual([201, 'sent']);

      const message = await settled(w, first.conversationId, String(res.body.id));
      expect(message).toEqual(expect.objectContaining({ status: 'sent', chat_message_id: expect.stringMatching(/^wamid\./) }));
      const attempts = m.graph.received(sends(w)).filter((req) => textOf(req) === 'Your parcel is on its way');
      expect(attempts).toHaveLength(2);
      // Meta allows one message per 6 s to one recipient; a little slack for timers.
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(5000);
    });

    it('a throughput refusal (130429) keeps the message pending and a later send to the chat queues behind it, both in order', async () => {
      const w = await connectedWorkspace(m);
      const { conversationId } = await h.conversationWith(w);
      m.graph.failNext(sends(w), GRAPH_ERRORS.rateLimited);
      const a = await h.post(w, conversationId, { body: 'First: your order' });
      expect([a.status, a.body.status]).toEqual([201, 'pending']);
      const b = await h.post(w, conversationId, { body: 'Second: the tracking link' });
      expect([b.status, b.body.status]).toEqual([201, 'pending']);
      expect(Number(b.body.queue_position)).toBeGreaterThan(Number(a.body.queue_position));

      expect((await settled(w, conversationId, String(a.body.id))).status).toBe('sent');
      expect((await settled(w, conversationId, String(b.body.id))).status).toBe('sent');
      const attempts = m.graph.received(sends(w));
      expect(attempts.map(textOf)).toEqual(['First: your order', 'First: your order', 'Second: the tracking link']);
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1500);
      expect(attempts[2]!.at).toBeGreaterThanOrEqual(attempts[1]!.at);
    });
  });
});
