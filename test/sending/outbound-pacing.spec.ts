import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { api, createE2eApp, type E2eWorkspace, eventually, type Json, link, messageWhen, newWorkspace } from '../e2e/e2e-support.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';

/**
 * The scan number's paced outbound queue (docs/sending.md), through the real Baileys driver to the
 * WhatsApp simulator: a send answers 201 `pending` with its place in the queue and reaches the
 * contact at its turn, never closer than the least gap to the one before, chats in order; the
 * caps answer 429 with `Retry-After`; "typing…" reaches the contact before the message.
 */
jest.setTimeout(120_000);

const PHONE = '15550100401';

describe('sending: the paced queue of a number linked by QR code', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let ws: E2eWorkspace;

  const limits = (body: object) => t.http().patch('/api/chat/limits').set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId).send(body);
  const send = (conversationId: string, body: object) => api(t, ws, 'post', `/api/conversations/${conversationId}/messages`, body);

  /** A chat the contact opened (so no first-contact cap applies): its conversation id. */
  async function opened(from: string): Promise<string> {
    const id = await sim.deliverText({ to: PHONE, from, name: 'Pace Tester', text: 'hello' });
    const inbound = await messageWhen(t, ws, id);
    return String(inbound.conversation_id);
  }

  const sentStatus = (conversationId: string, messageId: string): Promise<Json> =>
    eventually(
      `message ${messageId} sent`,
      async () => {
        const res = await api(t, ws, 'get', `/api/conversations/${conversationId}/messages`);
        const found = (res.body as { messages: Json[] }).messages.find((m) => m.id === messageId);
        return found && found.status !== 'pending' ? found : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    t = await createE2eApp(sim);
    ws = await newWorkspace(t);
    await link(t, sim, ws, PHONE);
    await sim.waitForLive(PHONE);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.stop();
  });

  it('settings: bounds are enforced with the field named, only owners and admins in the Console change them', async () => {
    expect((await limits({ min_gap_ms: 100 })).body).toEqual({ error: 'min_gap_ms must be an integer from 200 to 600000' });
    expect((await limits({ typing: 'sometimes' })).body).toEqual({ error: 'typing must be one of automations, all, off' });
    expect((await limits({ speed: 1 })).body).toEqual({ error: 'unknown field speed' });
    expect((await limits([1])).body).toEqual({ error: 'request body must be a JSON object' });
    expect((await limits({})).status).toBe(200);
    const keyPatch = await t.http().patch('/api/chat/limits').set('Authorization', `Bearer ${ws.key}`).send({ burst: 2 });
    expect(keyPatch.status).toBe(403);
    const read = await api(t, ws, 'get', '/api/chat/limits');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ defaults: { min_gap_ms: 0 }, usage: { queue: { depth: 0 } } });
  });

  it('sends answer 201 pending with a queue place, and reach the contact paced: never closer than the least gap, each chat in order', async () => {
    const saved = await limits({ min_gap_ms: 300, jitter_ms: 200, per_minute: 300, burst: 50, typing: 'off' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ min_gap_ms: 300, jitter_ms: 200, per_minute: 300, burst: 50, typing: 'off' });
    const chats = [await opened('4915100401001'), await opened('4915100401002')];
    const answers: Json[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await send(chats[i % 2]!, { body: `paced ${i}` });
      expect(res.status).toBe(201);
      answers.push(res.body as Json);
    }
    expect(answers.every((a) => a.status === 'pending')).toBe(true);
    expect(answers.map((a) => a.queue_position)).toEqual(expect.arrayContaining([expect.any(Number)]));
    expect(Number(answers[11]!.queue_position)).toBeGreaterThan(1);
    const queue = await api(t, ws, 'get', '/api/chat/queue');
    expect((queue.body as Json).depth).toBeGreaterThan(0);
    expect(((queue.body as Json).messages as Json[]).map((m) => m.position)).toEqual(
      Array.from({ length: ((queue.body as Json).messages as Json[]).length }, (_, i) => i + 1),
    );
    const scraped = (await t.http().get('/metrics')).text;
    expect(scraped).toMatch(new RegExp(`inbox_outbound_queue_depth\\{workspace="${ws.workspaceId}"\\} [1-9]`));

    for (const [i, answer] of answers.entries()) await sentStatus(chats[i % 2]!, String(answer.id));
    const received = sim.sent(PHONE).filter((m) => m.text?.startsWith('paced '));
    expect(received.map((m) => m.text)).toEqual(answers.map((_, i) => `paced ${i}`));
    const gaps = received.slice(1).map((m, i) => m.at - received[i]!.at);
    // The simulator's receive times: the least gap, with the jitter on top (timers fire late, never early).
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(290);
    expect(new Set(gaps.map((gap) => Math.round(gap / 20))).size).toBeGreaterThan(1);
    expect(received.every((m) => !m.repeat)).toBe(true);
    expect((await t.http().get('/metrics')).text).toMatch(/inbox_outbound_wait_seconds_count\{channel="scan"\} [1-9]/);
    // The queue drained: its pump gives the lane back (and stops) instead of waiting on.
    await eventually('the lane released', async () => (await t.redis.exists(`${t.config.redisPrefix}:lane:${ws.workspaceId}:pump`)) === 0, 20_000);
  });

  it('typing: with typing "all" the contact sees composing before the message', async () => {
    await limits({ typing: 'all', min_gap_ms: 200, jitter_ms: 0 });
    const chat = await opened('4915100401003');
    const res = await send(chat, { body: 'typed first' });
    expect(res.status).toBe(201);
    await sentStatus(chat, String((res.body as Json).id));
    const message = await sim.waitForSent((m) => m.text === 'typed first');
    const composing = sim.chatStates(PHONE).filter((s) => s.state === 'composing' && s.to.startsWith('4915100401003'));
    expect(composing.length).toBeGreaterThan(0);
    expect(composing.at(-1)!.at).toBeLessThan(message.at);
    expect(message.at - composing.at(-1)!.at).toBeGreaterThanOrEqual(700);
    await limits({ typing: 'off' });
  });

  it('the typing route shows composing, then paused after duration_ms', async () => {
    const chat = await opened('4915100401004');
    const res = await api(t, ws, 'post', `/api/conversations/${chat}/typing`, { state: 'composing', duration_ms: 300 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    await eventually('paused', () => sim.chatStates(PHONE).some((s) => s.state === 'paused' && s.to.startsWith('4915100401004')));
    const bad = await api(t, ws, 'post', `/api/conversations/${chat}/typing`, { state: 'dancing' });
    expect(bad.body).toEqual({ error: 'state must be one of composing, recording, paused' });
  });

  it('caps: the unanswered cap and the new-chats cap answer 429 naming the cap, with Retry-After', async () => {
    await limits({ unanswered_per_chat: 2, first_contacts_per_day: 1, min_gap_ms: 200, jitter_ms: 0 });
    const chat = await opened('4915100401005');
    expect((await send(chat, { body: 'one' })).status).toBe(201);
    expect((await send(chat, { body: 'two' })).status).toBe(201);
    const third = await send(chat, { body: 'three' });
    expect(third.status).toBe(429);
    expect((third.body as Json).error).toBe(
      'unanswered messages limit reached: 2 messages sent to this chat in the last 24 hours without a reply (cap 2 per chat)',
    );
    expect((third.body as Json).limit).toBe('unanswered');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(3600);

    sim.addContact('4915100401006');
    sim.addContact('4915100401007');
    const first = await api(t, ws, 'post', '/api/conversations', { phone: '+49 151 00401006', body: 'a new chat' });
    expect(first.status).toBe(201);
    const second = await api(t, ws, 'post', '/api/conversations', { phone: '4915100401007', body: 'another new chat' });
    expect(second.status).toBe(429);
    expect((second.body as Json).error).toBe('new chats limit reached: this number started 1 new chats in the last 24 hours (cap 1 per day)');
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(3600);
    const status = await api(t, ws, 'get', '/api/chat/status');
    expect((status.body as Json).limits).toMatchObject({ first_contacts: { used: 1, cap: 1 }, unanswered: { cap: 2 } });
    expect(((status.body as Json).limits as { unanswered: { chats_at_cap: number } }).unanswered.chats_at_cap).toBeGreaterThanOrEqual(1);
  });

  it('a number not on WhatsApp is refused with 400 before anything is stored', async () => {
    await limits({ first_contacts_per_day: 100 });
    const res = await api(t, ws, 'post', '/api/conversations', { phone: '4915100409999', body: 'anyone there?' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'phone number is not on WhatsApp' });
    const list = await api(t, ws, 'get', '/api/conversations');
    expect((list.body as Json[]).some((c) => c.chat_phone === '4915100409999')).toBe(false);
  });
});
