import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Clock } from '../../src/modules/auth/clock/clock.js';
import { InboxChangeHooks } from '../../src/modules/inbox/changes/inbox-change-hooks.js';
import type { InboxChange } from '../../src/modules/inbox/changes/inbox-change.js';
import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { ManualClock } from '../support/manual-clock.js';
import { listenUrl, openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { UNKNOWN_ID, workspaceCallers } from './conversation-fixtures.js';
import { call, type Caller } from './inbox-http.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('conversation statuses: pending, snoozed (and its wake-up), counts', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;
  const clock = new ManualClock();
  const changes: InboxChange[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      providers: [FakeChannelGateway],
      env: { SNOOZE_SWEEP_INTERVAL_MS: '100' },
      customize: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    inbox = new InboxFactories(t.app);
    gateway = t.app.get(FakeChannelGateway);
    // What the webhook outbox sees: every status change reaches the change hooks, in its transaction.
    t.app.get(InboxChangeHooks).register({ changes: ['conversation.status'], inTransaction: async (_workspaceId, _tx, change) => void changes.push(change) });
  });
  beforeEach(() => {
    gateway.reset();
    changes.length = 0;
  });
  afterAll(async () => {
    await t?.close();
  });

  const patch = (caller: Caller, id: string, body: object) => call(t, caller, 'patch', `/api/conversations/${id}`, body);
  const get = async (caller: Caller, id: string) => (await call(t, caller, 'get', `/api/conversations/${id}`).expect(200)).body;
  const later = (ms: number): string => new Date(clock.now() + ms).toISOString();

  async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('sets pending, and any inbound message opens it again', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const phone = randomPhone();
    const conversation = await inbox.conversation(ws.id, { phone });
    const pending = await patch(keyCaller, conversation.id, { status: 'pending' });
    expect([pending.status, pending.body]).toEqual([200, expect.objectContaining({ id: conversation.id, status: 'pending', snoozed_until: null })]);
    expect(changes).toEqual([expect.objectContaining({ kind: 'conversation.status', previousStatus: 'open' })]);
    const listed = await call(t, keyCaller, 'get', '/api/conversations?status=pending').expect(200);
    expect(listed.body.map((c: { id: string }) => c.id)).toEqual([conversation.id]);
    await inbox.message(ws.id, { phone });
    expect((await get(keyCaller, conversation.id)).status).toBe('open');
  });

  it('checks a snooze: snoozed_until required with snoozed, only with snoozed, a future time at most 365 days ahead', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const conversation = await inbox.conversation(ws.id);
    const bad = async (body: object, id = conversation.id): Promise<[number, string]> => {
      const res = await patch(keyCaller, id, body);
      return [res.status, res.body.error];
    };
    expect(await bad({ status: 'snoozed' })).toEqual([400, 'snoozed_until is required when status is snoozed']);
    expect(await bad({ status: 'open', snoozed_until: later(HOUR) })).toEqual([400, 'snoozed_until is only for status snoozed']);
    expect(await bad({ status: 'closed', snoozed_until: null })).toEqual([400, 'snoozed_until is only for status snoozed']);
    for (const value of [null, 42, 'tomorrow', '2026-12-03', '2026-12-03T09:00:00', '2026-13-03T09:00:00Z']) {
      expect([value, ...(await bad({ status: 'snoozed', snoozed_until: value }))]).toEqual([
        value,
        400,
        'snoozed_until must be an RFC 3339 date-time with a time zone, e.g. 2026-12-03T09:00:00Z',
      ]);
    }
    expect(await bad({ status: 'snoozed', snoozed_until: later(-1000) })).toEqual([400, 'snoozed_until must be a future date-time']);
    expect(await bad({ status: 'snoozed', snoozed_until: later(0) })).toEqual([400, 'snoozed_until must be a future date-time']);
    expect(await bad({ status: 'snoozed', snoozed_until: later(365 * DAY + 1000) })).toEqual([400, 'snoozed_until must be at most 365 days ahead']);
    // The time is judged once the conversation is found: an unknown one is 404 whatever the time.
    expect(await bad({ status: 'snoozed', snoozed_until: later(-1000) }, UNKNOWN_ID)).toEqual([404, 'conversation not found']);
    expect(await bad({ status: 'archived' })).toEqual([400, 'status must be open, pending, snoozed or closed']);
    expect((await get(keyCaller, conversation.id)).status).toBe('open');
    expect(changes).toEqual([]);

    // 365 days ahead is allowed; any other status clears the time.
    const until = later(365 * DAY);
    const snoozed = await patch(keyCaller, conversation.id, { status: 'snoozed', snoozed_until: until });
    expect([snoozed.status, snoozed.body.status, snoozed.body.snoozed_until]).toEqual([200, 'snoozed', until]);
    const closed = await patch(keyCaller, conversation.id, { status: 'closed' });
    expect([closed.body.status, closed.body.snoozed_until]).toEqual(['closed', null]);
    const [row] = await t.dataSource.query('SELECT snoozed_until FROM conversations WHERE id = $1', [conversation.id]);
    expect(row.snoozed_until).toBeNull();
  });

  it('wakes a snoozed conversation when its time comes (the sweeper, by the clock), with the live event and the change hooks', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const conversation = await inbox.conversation(ws.id);
    const other = await inbox.conversation(ws.id);
    const until = later(HOUR);
    await patch(keyCaller, conversation.id, { status: 'snoozed', snoozed_until: until }).expect(200);
    await patch(keyCaller, other.id, { status: 'snoozed', snoozed_until: later(2 * HOUR) }).expect(200);
    expect((await call(t, keyCaller, 'get', '/api/conversations?status=snoozed').expect(200)).body).toHaveLength(2);
    const stream = await openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${(keyCaller as { key: string }).key}` });
    try {
      // Several sweeps run (every 100 ms) while the time has not come: nothing opens.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await get(keyCaller, conversation.id)).status).toBe('snoozed');
      changes.length = 0;

      clock.advance(HOUR);
      await waitFor('the wake-up', async () => (await get(keyCaller, conversation.id)).status === 'open');
      expect(await get(keyCaller, conversation.id)).toMatchObject({ status: 'open', snoozed_until: null });
      expect(await get(keyCaller, other.id)).toMatchObject({ status: 'snoozed', snoozed_until: later(HOUR) });
      expect(changes).toEqual([expect.objectContaining({ kind: 'conversation.status', previousStatus: 'snoozed' })]);
      await stream.waitFor('conversation.updated', (client) =>
        client.events.some((event) => event.event === 'conversation.updated' && JSON.parse(event.data).id === conversation.id),
      );
      const event = stream.events.find((e) => e.event === 'conversation.updated' && JSON.parse(e.data).id === conversation.id)!;
      expect(JSON.parse(event.data)).toMatchObject({ id: conversation.id, status: 'open', snoozed_until: null });
    } finally {
      stream.close();
      clock.advance(2 * HOUR);
    }
  });

  it("wakes a snoozed conversation with the customer's next message, alone or in a group commit", async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const phones = [randomPhone(), randomPhone(), randomPhone()];
    const conversations = [];
    for (const phone of phones) conversations.push(await inbox.conversation(ws.id, { phone, contact: { phone, name: 'Ada' }, chatName: 'Ada' }));
    for (const conversation of conversations) await patch(keyCaller, conversation.id, { status: 'snoozed', snoozed_until: later(DAY) }).expect(200);

    // One message alone: the single-message statement.
    await inbox.message(ws.id, { phone: phones[0] });
    expect(await get(keyCaller, conversations[0]!.id)).toMatchObject({ status: 'open', snoozed_until: null });
    // Two at once: one group, its move statement.
    await Promise.all([inbox.message(ws.id, { phone: phones[1] }), inbox.message(ws.id, { phone: phones[2] })]);
    for (const conversation of conversations.slice(1)) expect(await get(keyCaller, conversation.id)).toMatchObject({ status: 'open', snoozed_until: null });
    // What the workspace itself sends does not wake it.
    await patch(keyCaller, conversations[0]!.id, { status: 'snoozed', snoozed_until: later(DAY) }).expect(200);
    await inbox.message(ws.id, { phone: phones[0], direction: 'outbound' });
    expect(await get(keyCaller, conversations[0]!.id)).toMatchObject({ status: 'snoozed', snoozed_until: later(DAY) });
  });

  it('counts per status, and within a status per assignee, unread and label, as the caller sees them', async () => {
    const { ws, owner, ownerCaller, keyCaller } = await workspaceCallers(t);
    const agent = await t.factories.signedInMember(ws.id, 'agent');
    const agentCaller: Caller = { cookie: agent.cookie, workspaceId: ws.id };
    const label = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    const [a, b, c, d, e, f] = await Promise.all(Array.from({ length: 6 }, () => inbox.conversation(ws.id)));
    await call(t, ownerCaller, 'post', `/api/conversations/${a!.id}/assign`, { user_id: owner.id }).expect(200);
    await call(t, ownerCaller, 'post', `/api/conversations/${b!.id}/assign`, { user_id: agent.id }).expect(200);
    await call(t, ownerCaller, 'post', `/api/conversations/${c!.id}/read`).expect(200);
    await patch(ownerCaller, d!.id, { status: 'pending' }).expect(200);
    await patch(ownerCaller, e!.id, { status: 'snoozed', snoozed_until: later(DAY) }).expect(200);
    await patch(ownerCaller, f!.id, { status: 'closed' }).expect(200);
    await t.dataSource.query(`UPDATE conversations SET label_ids = ARRAY[$1::uuid] WHERE id = ANY($2::uuid[])`, [label, [a!.id, c!.id, f!.id]]);

    const counts = async (caller: Caller, query = '') => (await call(t, caller, 'get', `/api/conversations/counts${query}`).expect(200)).body;
    expect(await counts(ownerCaller)).toEqual({
      status: { open: 3, pending: 1, snoozed: 1, closed: 1 },
      assignee: { mine: 1, unassigned: 1, all: 3 },
      unread: 2,
      labels: [{ label_id: label, count: 2 }],
    });
    expect(await counts(ownerCaller, '?status=closed')).toEqual({
      status: { open: 3, pending: 1, snoozed: 1, closed: 1 },
      assignee: { mine: 0, unassigned: 1, all: 1 },
      unread: 1,
      labels: [{ label_id: label, count: 1 }],
    });
    // The agent does not see the owner's conversation; a key is nobody (`mine` 0).
    expect(await counts(agentCaller)).toMatchObject({ status: { open: 2, pending: 1, snoozed: 1, closed: 1 }, assignee: { mine: 1, unassigned: 1, all: 2 } });
    expect((await counts(keyCaller)).assignee).toEqual({ mine: 0, unassigned: 1, all: 3 });
    const bad = await call(t, keyCaller, 'get', '/api/conversations/counts?status=done');
    expect([bad.status, bad.body]).toEqual([400, { error: 'status must be open, pending, snoozed or closed' }]);
  });

  describe('automation action set_status', () => {
    const automate = async (owner: Caller, actions: object[]) =>
      call(t, owner, 'post', '/api/automations', { name: 'status rule', trigger: 'message.inbound', actions });

    it('validates it, and sets the status of the conversation the message came in', async () => {
      const { ws, ownerCaller, keyCaller } = await workspaceCallers(t);
      const refusal = async (action: object): Promise<string> => {
        const res = await automate(ownerCaller, [action]);
        expect(res.status).toBe(400);
        return res.body.error as string;
      };
      expect(await refusal({ type: 'set_status', status: 'done' })).toBe('actions[0].status must be open, pending, snoozed or closed');
      expect(await refusal({ type: 'set_status', status: 'snoozed' })).toBe(
        'actions[0].snooze_minutes must be an integer from 1 to 525600 (required for status snoozed)',
      );
      expect(await refusal({ type: 'set_status', status: 'snoozed', snooze_minutes: 525_601 })).toMatch(/^actions\[0\]\.snooze_minutes must be/);
      expect(await refusal({ type: 'set_status', status: 'closed', snooze_minutes: 5 })).toBe('actions[0].snooze_minutes is only for status snoozed');

      const created = await automate(ownerCaller, [{ type: 'set_status', status: 'snoozed', snooze_minutes: 90 }]);
      expect([created.status, created.body.actions]).toEqual([201, [{ type: 'set_status', status: 'snoozed', snooze_minutes: 90 }]]);
      const { conversation, message } = await inbox.message(ws.id, { content: 'out of office?' });
      await waitFor('the automation', async () => {
        const rows: { done: boolean }[] = await t.dataSource.query('SELECT done_at IS NOT NULL AS done FROM automation_triggers WHERE message_id = $1', [
          message.id,
        ]);
        return rows[0]?.done === true;
      });
      expect(await get(keyCaller, conversation.id)).toMatchObject({ status: 'snoozed', snoozed_until: later(90 * 60_000) });
    });
  });
});
