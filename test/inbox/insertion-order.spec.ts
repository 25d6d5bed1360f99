import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { workspaceCallers } from './conversation-fixtures.js';
import { call, type Caller } from './inbox-http.js';

// Channels stamp messages to the second: many share a timestamp, and the lists must show them in
// the order they arrived, not in the random order of their UUIDs.
describe('insertion order breaks timestamp ties', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
  });
  beforeEach(() => gateway.reset());
  afterAll(async () => {
    await t?.close();
  });

  async function walk(caller: Caller, conversationId: string, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=${limit}&before=${cursor}` : `?limit=${limit}`;
      const res = await call(t, caller, 'get', `/api/conversations/${conversationId}/messages${query}`);
      expect(res.status).toBe(200);
      seen.push(...(res.body.messages as { content: string }[]).map((m) => m.content));
      cursor = res.body.next_cursor;
    } while (cursor);
    return seen;
  }

  it('lists live messages of the same second newest arrival first, and pages them without skips or repeats', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const phone = randomPhone();
    const second = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    // One after the other, as one chat's socket delivers them; all in the same second.
    const contents = Array.from({ length: 11 }, (_, i) => `same-${String(i).padStart(2, '0')}`);
    let conversationId = '';
    for (const content of contents) conversationId = (await inbox.message(ws.id, { phone, content, timestamp: second })).conversation.id;
    const newestFirst = [...contents].reverse();
    for (const limit of [1, 3, 4, 100]) expect(await walk(keyCaller, conversationId, limit)).toEqual(newestFirst);
  });

  it('still accepts a cursor of the earlier <micros>:<message id> format', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const phone = randomPhone();
    const second = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const stored = [];
    for (let i = 0; i < 4; i++) stored.push(await inbox.message(ws.id, { phone, content: `old-${i}`, timestamp: second }));
    const conversationId = stored[0]!.conversation.id;
    // The old cursor of old-2: the page goes on with what arrived before it.
    const micros = String(second.getTime() * 1000);
    const old = Buffer.from(`${micros}:${stored[2]!.message.id}`).toString('base64url');
    const res = await call(t, keyCaller, 'get', `/api/conversations/${conversationId}/messages?before=${old}`);
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { content: string }) => m.content)).toEqual(['old-1', 'old-0']);
  });

  it('lists conversations whose last messages share a second in the order those messages arrived', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const second = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const phones = Array.from({ length: 6 }, () => randomPhone());
    const ids: string[] = [];
    for (const phone of phones) ids.push((await inbox.message(ws.id, { phone, timestamp: second })).conversation.id);
    let res = await call(t, keyCaller, 'get', '/api/conversations');
    expect(res.body.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
    // A new message of the same second moves its conversation to the top.
    await inbox.message(ws.id, { phone: phones[0]!, timestamp: second });
    res = await call(t, keyCaller, 'get', '/api/conversations');
    expect(res.body.map((c: { id: string }) => c.id)).toEqual([ids[0], ...[...ids.slice(1)].reverse()]);
  });
});
