import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { createE2eApp, link, messageWhen, newWorkspace, sleep, type E2eWorkspace } from '../e2e/e2e-support.js';
import { listenUrl, openSse } from '../support/sse-client.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { addWebhook, eventually, type Owned, Receiver, secretOf, WEBHOOK_ENV } from './webhook-support.js';

/**
 * `conversation.updated` of the catalogue: an assignment and a status change of a conversation a
 * contact opened through the real Baileys driver and the simulator, each verified with the
 * Standard Webhooks reference library; setting the same again sends nothing.
 */
jest.setTimeout(60_000);

const PHONE = '15550100383';
const CONTACT = '4915100383001';
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
type Body = Record<string, unknown>;

describe('conversation.updated (real driver, simulator)', () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let receiver: Receiver;
  let ws: E2eWorkspace;
  let owned: Owned;
  let secret: string;
  let conversationId: string;

  beforeAll(async () => {
    [sim, receiver] = await Promise.all([WhatsAppSimulator.start(), Receiver.start()]);
    t = await createE2eApp(sim, { env: WEBHOOK_ENV });
    ws = await newWorkspace(t);
    owned = {
      workspaceId: ws.workspaceId,
      cookie: ws.owner.cookie,
      as: (method, path) => t.http()[method](path).set('Cookie', ws.owner.cookie).set('X-Tenant-ID', ws.workspaceId),
    };
    await addWebhook(owned, receiver.url('/conversations'), { events: ['conversation.updated'] });
    await addWebhook(owned, receiver.url('/chat-only'), { events: ['scan.chat'] });
    secret = await secretOf(owned);
    await link(t, sim, ws, PHONE);
    const id = await sim.deliverText({ to: PHONE, from: CONTACT, name: 'Noa', text: 'can someone help?' });
    conversationId = String((await messageWhen(t, ws, id)).conversation_id);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await sim?.stop();
  });

  const events = (): Body[] =>
    receiver.at('/conversations').map((request) => {
      expect(request.headers['x-svc-event']).toBe('conversation.updated');
      return new Webhook(secret).verify(request.body.toString('utf8'), request.headers as Record<string, string>) as Body;
    });
  const eventWhen = (what: string, check: (body: Body) => boolean): Promise<Body> => eventually(what, async () => events().find(check) ?? null, 20_000);

  it('an assignment gives conversation.updated with changes ["assignee"], every field of the conversation flat', async () => {
    const agent = await t.factories.signedInMember(ws.workspaceId, 'agent');
    const assigned = await owned.as('post', `/api/conversations/${conversationId}/assign`).send({ user_id: agent.id });
    expect(assigned.status).toBe(200);
    const body = await eventWhen('assignee', (b) => (b.changes as string[]).includes('assignee'));
    expect(body).toEqual({
      event: 'conversation.updated',
      channel: 'scan',
      workspace_id: ws.workspaceId,
      timestamp: expect.stringMatching(RFC3339),
      conversation_id: conversationId,
      changes: ['assignee'],
      previous_status: 'open',
      previous_assignee_id: null,
      chat_jid: `${CONTACT}@s.whatsapp.net`,
      chat_name: expect.any(String),
      chat_phone: CONTACT,
      is_group: false,
      contact_id: expect.any(String),
      assignee_id: agent.id,
      status: 'open',
      unread_count: expect.any(Number),
      last_message_at: expect.any(String),
      last_message_preview: 'can someone help?',
      ...Object.fromEntries(
        Object.keys(body)
          .filter((k) => !EXPECTED_KEYS.has(k))
          .map((k) => [k, body[k]]),
      ),
    });
    // The same assignee again changes nothing and sends nothing.
    expect((await owned.as('post', `/api/conversations/${conversationId}/assign`).send({ user_id: agent.id })).status).toBe(200);
  });

  it('a status change gives conversation.updated with changes ["status"]; the same status again sends nothing', async () => {
    // The live stream's catalogue mode carries the very body the webhook receives.
    const stream = await openSse(`${await listenUrl(t.app)}/api/events?events=conversation.updated`, {
      Cookie: ws.owner.cookie,
      'X-Tenant-ID': ws.workspaceId,
    });
    await stream.waitFor('the stream open', (c) => c.retry !== undefined);
    const closed = await owned.as('patch', `/api/conversations/${conversationId}`).send({ status: 'closed' });
    expect(closed.status).toBe(200);
    await stream.waitFor('conversation.updated on the stream', (c) => c.events.length >= 1, 20_000);
    stream.close();
    expect(await eventWhen('status', (b) => (b.changes as string[]).includes('status'))).toMatchObject({
      conversation_id: conversationId,
      previous_status: 'open',
      status: 'closed',
      previous_assignee_id: expect.any(String),
    });
    const delivered = receiver.at('/conversations').find((request) => request.body.toString('utf8').includes('"changes":["status"]'));
    expect(stream.events.map((e) => e.event)).toEqual(['conversation.updated']);
    expect(stream.events[0]!.data).toBe(delivered?.body.toString('utf8'));
    expect((await owned.as('patch', `/api/conversations/${conversationId}`).send({ status: 'closed' })).status).toBe(200);
    await sleep(700);
    expect(events()).toHaveLength(2);
    expect(receiver.at('/chat-only').every((request) => request.headers['x-svc-event'] === 'scan.chat')).toBe(true);
  });

  it('a label put on or taken off gives changes ["labels"] with previous_label_ids; a label it has again sends nothing', async () => {
    const label = await owned.as('post', '/api/labels').send({ name: 'VIP', color: '#aa3300' });
    expect(label.status).toBe(201);
    const labelId = label.body.id as string;
    const before = events().length;
    expect((await owned.as('post', `/api/conversations/${conversationId}/labels`).send({ label_id: labelId })).status).toBe(200);
    const added = await eventWhen('labels added', (b) => (b.changes as string[]).includes('labels') && (b.label_ids as string[]).includes(labelId));
    expect(added).toMatchObject({ conversation_id: conversationId, changes: ['labels'], previous_label_ids: [], label_ids: [labelId], status: 'closed' });
    // The same label again changes nothing and sends nothing; taking it off sends the reverse.
    expect((await owned.as('post', `/api/conversations/${conversationId}/labels`).send({ label_id: labelId })).status).toBe(200);
    expect((await owned.as('delete', `/api/conversations/${conversationId}/labels/${labelId}`)).status).toBe(200);
    const removed = await eventWhen(
      'labels removed',
      (b) => (b.changes as string[]).includes('labels') && (b.previous_label_ids as string[]).includes(labelId),
    );
    expect(removed).toMatchObject({ changes: ['labels'], previous_label_ids: [labelId], label_ids: [] });
    await sleep(700);
    expect(events()).toHaveLength(before + 2);
  });
});

// The REST conversation's fields this test names; any added later (labels, …) are spread as they come.
const EXPECTED_KEYS = new Set([
  'event',
  'channel',
  'workspace_id',
  'timestamp',
  'conversation_id',
  'changes',
  'previous_status',
  'previous_assignee_id',
  'chat_jid',
  'chat_name',
  'chat_phone',
  'is_group',
  'contact_id',
  'assignee_id',
  'status',
  'unread_count',
  'last_message_at',
  'last_message_preview',
]);
