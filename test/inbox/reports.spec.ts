import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';
import { DAY_MS, isoDay, report as readReport, type Report, team as makeTeam, type Team } from './reports-support.js';

describe('GET /api/reports/conversations', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;

  beforeAll(async () => {
    // The snooze sweeper runs often, so a snooze can end within a test.
    t = await createTestApp({ providers: [FakeChannelGateway], env: { SNOOZE_SWEEP_INTERVAL_MS: '100' } });
    inbox = new InboxFactories(t.app);
    gateway = t.app.get(FakeChannelGateway);
  });
  afterAll(async () => {
    await t?.close();
  });

  const team = (): Promise<Team> => makeTeam(t, gateway);
  const report = (caller: Caller, query = ''): Promise<Report> => readReport(t, caller, query);
  const reply = async (caller: Caller, conversationId: string, body = 'on it'): Promise<void> => {
    await call(t, caller, 'post', `/api/conversations/${conversationId}/messages`, { body }).expect(201);
  };
  const setStatus = async (caller: Caller, conversationId: string, status: string): Promise<void> => {
    await call(t, caller, 'patch', `/api/conversations/${conversationId}`, { status }).expect(200);
  };
  const conversationStatus = async (w: Team, id: string): Promise<string> =>
    ((await call(t, w.owner, 'get', `/api/conversations/${id}`)).body as { status: string }).status;
  async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const ago = (seconds: number): Date => new Date(Date.now() - seconds * 1000);
  /** A duration measured against the wall clock: at least `expected`, and a few seconds at most later. */
  const about = (expected: number) => ({
    asymmetricMatch: (actual: unknown): boolean => typeof actual === 'number' && actual >= expected && actual <= expected + 10,
    toAsymmetricMatcher: (): string => `a number from ${expected} to ${expected + 10}`,
  });

  it('measures the first response (Console) and the resolution (PATCH closed) of a conversation, credited to the agent', async () => {
    const w = await team();
    const { conversation } = await inbox.message(w.workspaceId, { timestamp: ago(600) });
    await reply(w.agent, conversation.id); // 600 s after the customer wrote
    await reply(w.agent, conversation.id, 'second reply: not a first response');
    await call(t, w.owner, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: w.agentId }).expect(200);
    await setStatus(w.agent, conversation.id, 'closed');

    const body = await report(w.owner);
    expect(body.timezone).toBe('UTC');
    expect(body.days).toHaveLength(14);
    expect(body.to).toBe(isoDay(Date.now()));
    expect(body.totals.opened).toBe(1);
    expect(body.totals.closed).toBe(1);
    expect(body.totals.first_response).toEqual({ count: 1, median_s: about(600), average_s: about(600) });
    expect(body.totals.resolution).toEqual({ count: 1, median_s: about(600), average_s: about(600) });
    const today = body.days.at(-1)!;
    expect(today).toEqual({ date: body.to, opened: 1, closed: 1, first_response_median_s: about(600), resolution_median_s: about(600) });
    const agent = body.agents.find((a) => a.user_id === w.agentId)!;
    expect(agent).toEqual({
      user_id: w.agentId,
      name: w.agentName,
      closed: 1,
      first_responses: 1,
      first_response_median_s: about(600),
      resolution_median_s: about(600),
    });
    // Every member is listed, with nothing to their name when they did nothing; the agent first.
    expect(body.agents[0]!.user_id).toBe(w.agentId);
    expect(body.agents).toHaveLength(3);
    expect(body.agents.find((a) => a.user_id === w.ownerId)).toMatchObject({ closed: 0, first_responses: 0, first_response_median_s: null });
  });

  it('credits a closing of an unassigned conversation to whoever gave its first response', async () => {
    const w = await team();
    const { conversation } = await inbox.message(w.workspaceId, { timestamp: ago(60) });
    await reply(w.agent, conversation.id);
    await setStatus(w.owner, conversation.id, 'closed');
    const unanswered = await inbox.message(w.workspaceId);
    await setStatus(w.owner, unanswered.conversation.id, 'closed');
    const body = await report(w.owner);
    expect(body.totals.closed).toBe(2);
    expect(body.agents.find((a) => a.user_id === w.agentId)).toMatchObject({ closed: 1, first_responses: 1, resolution_median_s: about(60) });
    // Nobody answered or held the other one: it counts in the totals only.
    expect(body.agents.reduce((sum, a) => sum + a.closed, 0)).toBe(1);
  });

  it('takes medians and averages over several conversations; a key’s reply is credited to the assignee', async () => {
    const w = await team();
    const times = [100, 200, 900];
    for (const seconds of times) {
      const { conversation } = await inbox.message(w.workspaceId, { timestamp: ago(seconds) });
      await call(t, w.owner, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: w.ownerId }).expect(200);
      await reply(w.key, conversation.id);
    }
    const body = await report(w.admin);
    expect(body.totals.first_response).toEqual({ count: 3, median_s: about(200), average_s: about(400) });
    expect(body.agents.find((a) => a.user_id === w.ownerId)).toMatchObject({ first_responses: 3, first_response_median_s: about(200) });
    expect(body.totals.resolution).toEqual({ count: 0, median_s: null, average_s: null });
  });

  it('counts a reopening by an inbound message as an opening, and measures from it', async () => {
    const w = await team();
    const phone = randomPhone();
    const { conversation } = await inbox.message(w.workspaceId, { phone, timestamp: ago(3000) });
    await setStatus(w.owner, conversation.id, 'closed');
    await inbox.message(w.workspaceId, { phone, timestamp: ago(300) }); // reopens it
    const after = (await call(t, w.owner, 'get', `/api/conversations/${conversation.id}`)).body as { status: string };
    expect(after.status).toBe('open');
    await reply(w.owner, conversation.id);
    await setStatus(w.owner, conversation.id, 'closed');

    const body = await report(w.owner);
    expect(body.totals.opened).toBe(2);
    expect(body.totals.closed).toBe(2);
    // The first opening was never answered; the second one was, 300 s after its inbound message.
    expect(body.totals.first_response).toEqual({ count: 1, median_s: about(300), average_s: about(300) });
    // Resolutions: 3000 s (opening to the first close) and 300 s (the reopening to the second).
    expect(body.totals.resolution.count).toBe(2);
    expect(body.totals.resolution.average_s).toEqual(about(1650));
  });

  it('counts leaving closed through PATCH as an opening; pending and back is not one', async () => {
    const w = await team();
    const { conversation } = await inbox.message(w.workspaceId);
    await setStatus(w.owner, conversation.id, 'pending');
    await setStatus(w.owner, conversation.id, 'open');
    expect((await report(w.owner)).totals).toMatchObject({ opened: 1, closed: 0 });
    await setStatus(w.owner, conversation.id, 'closed');
    await setStatus(w.owner, conversation.id, 'closed'); // again: no second closing
    await setStatus(w.owner, conversation.id, 'open');
    // A reply now answers nothing: this opening has no inbound message yet.
    await reply(w.owner, conversation.id);
    const body = await report(w.owner);
    expect(body.totals).toMatchObject({ opened: 2, closed: 1 });
    expect(body.totals.first_response.count).toBe(0);
  });

  it('does not count an automation’s reply as a first response', async () => {
    const w = await team();
    await call(t, w.owner, 'post', '/api/automations', {
      name: 'auto answer',
      trigger: 'message.inbound',
      actions: [{ type: 'reply', body: 'We will get back to you.' }],
    }).expect(201);
    const { conversation, message } = await inbox.message(w.workspaceId, { timestamp: ago(120) });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows: { done: boolean }[] = await t.dataSource.query(`SELECT done_at IS NOT NULL AS done FROM automation_triggers WHERE message_id = $1`, [
        message.id,
      ]);
      if (rows[0]?.done) break;
      if (Date.now() > deadline) throw new Error('the automation did not run');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(gateway.sent.filter((s) => s.conversation.id === conversation.id)).toHaveLength(1);
    expect((await report(w.owner)).totals.first_response.count).toBe(0);
    await reply(w.agent, conversation.id);
    // The person's reply is the first response, measured from the customer's message.
    expect((await report(w.owner)).totals.first_response).toEqual({ count: 1, median_s: about(120), average_s: about(120) });
  });

  it('records a closing by an automation, and a snooze woken by the sweeper stays the same opening', async () => {
    const w = await team();
    await call(t, w.owner, 'post', '/api/automations', {
      name: 'close thanks',
      trigger: 'message.inbound',
      conditions: [{ field: 'content', op: 'equals', value: 'thanks, solved' }],
      actions: [{ type: 'set_status', status: 'closed' }],
    }).expect(201);
    const phone = randomPhone();
    const { conversation } = await inbox.message(w.workspaceId, { phone, timestamp: ago(30) });
    await reply(w.agent, conversation.id);
    await inbox.message(w.workspaceId, { phone, content: 'thanks, solved' });
    await waitFor('the automation to close it', async () => (await conversationStatus(w, conversation.id)) === 'closed');
    let body = await report(w.owner);
    expect(body.totals).toMatchObject({ opened: 1, closed: 1, resolution: { count: 1, median_s: about(30), average_s: about(30) } });
    expect(body.agents.find((a) => a.user_id === w.agentId)).toMatchObject({ closed: 1, first_responses: 1 });

    const other = await inbox.message(w.workspaceId, { timestamp: ago(60) });
    const until = new Date(Date.now() + 1500).toISOString();
    await call(t, w.owner, 'patch', `/api/conversations/${other.conversation.id}`, { status: 'snoozed', snoozed_until: until }).expect(200);
    await waitFor('the sweeper to wake it', async () => (await conversationStatus(w, other.conversation.id)) === 'open');
    await reply(w.owner, other.conversation.id);
    body = await report(w.owner);
    expect(body.totals.opened).toBe(2);
    // Still the same opening: its first response is timed from the message before the snooze.
    expect(body.totals.first_response.count).toBe(2);
    expect(body.totals.first_response.average_s).toBeGreaterThanOrEqual(Math.round((30 + 60) / 2));
  });

  it('counts openings of every ingest path: concurrent (group commit), groups, a chat started by the workspace, history', async () => {
    const w = await team();
    const phones = [0, 1, 2, 3, 4, 5].map(() => randomPhone());
    const created = await Promise.all(phones.map((phone) => inbox.message(w.workspaceId, { phone })));
    await inbox.ingest.ingest(w.workspaceId, inbox.groupInbound(`1203630${Date.now()}`));
    await call(t, w.owner, 'post', '/api/conversations', { phone: `+${randomPhone()}`, body: 'hello from us' }).expect(201);
    const historyDay = Date.now() - 3 * DAY_MS;
    await inbox.ingest.ingestBatch(w.workspaceId, [inbox.inbound({ timestamp: new Date(historyDay) }), inbox.inbound({ timestamp: new Date(historyDay) })], {
      countUnread: false,
    });
    const body = await report(w.owner);
    expect(body.totals.opened).toBe(6 + 1 + 1 + 2);
    // History chats open on the day of their first synced message.
    expect(body.days.find((d) => d.date === isoDay(historyDay))!.opened).toBe(2);
    expect(body.days.at(-1)!.opened).toBe(8);

    // Known chats written together (the group statement) reopen, and each reopening is an opening.
    for (const { conversation } of created) await setStatus(w.owner, conversation.id, 'closed');
    await Promise.all(phones.map((phone) => inbox.message(w.workspaceId, { phone })));
    // A repeat opens nothing.
    const again = inbox.inbound();
    await inbox.ingest.ingest(w.workspaceId, again);
    await inbox.ingest.ingest(w.workspaceId, again);
    expect((await report(w.owner)).totals).toMatchObject({ opened: 10 + 6 + 1, closed: 6 });
  });
});
