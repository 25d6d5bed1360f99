import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Clock } from '../../src/modules/auth/clock/clock.js';
import { BAD_DAYS, BAD_TIME_ZONE } from '../../src/modules/inbox/stats/inbox-stats.service.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { ManualClock } from '../support/manual-clock.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';
import { workspaceCallers, type WorkspaceCallers } from './conversation-fixtures.js';

// "Now" for these tests: 10 March 2026, 23:30 UTC — already 11 March in Berlin (UTC+1 until the
// end of March), still 10 March in UTC.
const NOW = Date.parse('2026-03-10T23:30:00.000Z');
const at = (iso: string): Date => new Date(iso);

interface Stats {
  timezone: string;
  days: { date: string; inbound: number; outbound: number }[];
  open: number;
  unassigned: number;
}

describe('GET /api/inbox/stats', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let a: WorkspaceCallers;
  let other: WorkspaceCallers;
  let agent: Caller;
  let agentId: string;

  const stats = async (caller: Caller, query = ''): Promise<Stats> => {
    const res = await call(t, caller, 'get', `/api/inbox/stats${query}`);
    expect(res.status).toBe(200);
    return res.body as Stats;
  };

  beforeAll(async () => {
    const clock = new ManualClock();
    clock.advance(NOW - clock.now());
    t = await createTestApp({ customize: (builder) => builder.overrideProvider(Clock).useValue(clock) });
    inbox = new InboxFactories(t.app);
    a = await workspaceCallers(t);
    other = await workspaceCallers(t);
    const member = await t.factories.signedInMember(a.ws.id, 'agent');
    agent = { cookie: member.cookie, workspaceId: a.ws.id };
    agentId = member.id;

    const phone = randomPhone();
    await inbox.message(a.ws.id, { phone, timestamp: at('2026-03-10T08:00:00Z') });
    await inbox.message(a.ws.id, { phone, timestamp: at('2026-03-10T09:00:00Z') });
    await inbox.message(a.ws.id, { phone, timestamp: at('2026-03-10T09:05:00Z'), direction: 'outbound' });
    await inbox.message(a.ws.id, { phone, timestamp: at('2026-03-10T23:10:00Z') }); // 11 March in Berlin
    await inbox.message(a.ws.id, { timestamp: at('2026-03-09T12:00:00Z') });
    await inbox.message(a.ws.id, { timestamp: at('2026-02-25T12:00:00Z') }); // day 14 of 14
    await inbox.message(a.ws.id, { timestamp: at('2026-02-24T12:00:00Z') }); // before the window
    await inbox.message(other.ws.id, { timestamp: at('2026-03-10T10:00:00Z') });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts received and sent messages per day for the last 14 days in UTC, today last', async () => {
    const body = await stats(a.ownerCaller);
    expect(body.timezone).toBe('UTC');
    expect(body.days).toHaveLength(14);
    expect(body.days[0]).toEqual({ date: '2026-02-25', inbound: 1, outbound: 0 });
    expect(body.days[12]).toEqual({ date: '2026-03-09', inbound: 1, outbound: 0 });
    expect(body.days[13]).toEqual({ date: '2026-03-10', inbound: 3, outbound: 1 });
    const total = body.days.reduce((sum, d) => sum + d.inbound + d.outbound, 0);
    expect(total).toBe(6); // neither the message before the window nor the other workspace's
  });

  it('counts the days in the time zone asked for', async () => {
    const body = await stats(a.ownerCaller, '?days=3&tz=Europe/Berlin');
    expect(body.timezone).toBe('Europe/Berlin');
    expect(body.days).toEqual([
      { date: '2026-03-09', inbound: 1, outbound: 0 },
      { date: '2026-03-10', inbound: 2, outbound: 1 },
      { date: '2026-03-11', inbound: 1, outbound: 0 },
    ]);
  });

  it('counts open and unassigned conversations, as each caller sees them', async () => {
    const res = await call(t, a.ownerCaller, 'get', '/api/conversations');
    const [first, second, third] = res.body as { id: string }[];
    await call(t, a.ownerCaller, 'patch', `/api/conversations/${first!.id}`, { status: 'closed' }).expect(200);
    await call(t, a.ownerCaller, 'post', `/api/conversations/${second!.id}/assign`, { user_id: a.owner.id }).expect(200);
    await call(t, a.ownerCaller, 'post', `/api/conversations/${third!.id}/assign`, { user_id: agentId }).expect(200);

    // Four conversations: one closed, one the owner's, one the agent's, one unassigned.
    expect(await stats(a.ownerCaller, '?days=1')).toMatchObject({ open: 3, unassigned: 1 });
    expect(await stats(a.keyCaller, '?days=1')).toMatchObject({ open: 3, unassigned: 1 });
    // The agent does not see the owner's conversation, nor its messages.
    const seen = await stats(agent, '?days=14');
    expect(seen).toMatchObject({ open: 2, unassigned: 1 });
    const ownersMessages = (await stats(a.ownerCaller)).days.reduce((sum, d) => sum + d.inbound + d.outbound, 0);
    const agentsMessages = seen.days.reduce((sum, d) => sum + d.inbound + d.outbound, 0);
    expect(agentsMessages).toBeLessThan(ownersMessages);
  });

  it('answers a read-only key (a member route)', async () => {
    const key = await t.factories.apiKey(a.ws.id, 'read');
    expect((await stats({ key: key.key }, '?days=2')).days).toHaveLength(2);
  });

  it.each(['0', '91', 'abc', '1.5', '-3', '007', ' 5'])('answers days=%s with 400 (an integer from 1 to 90, at most two digits)', async (days) => {
    const res = await call(t, a.ownerCaller, 'get', `/api/inbox/stats?days=${encodeURIComponent(days)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: BAD_DAYS });
  });

  it.each(['Mars/Phobos', '../../etc/passwd', "UTC'; DROP TABLE messages; --", 'x'.repeat(80), 'Europe/Berlin\u00e9'])('answers tz=%s with 400', async (tz) => {
    const res = await call(t, a.ownerCaller, 'get', `/api/inbox/stats?tz=${encodeURIComponent(tz)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: BAD_TIME_ZONE });
  });

  it('accepts the tz database’s aliases as the document says, answering their canonical name', async () => {
    const document = (await t.http().get('/api/openapi.json')).body as {
      paths: Record<string, { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }>;
    };
    const schema = document.paths['/api/inbox/stats']!.get.parameters.find((parameter) => parameter.name === 'tz')!.schema;
    expect(schema.enum).toBeUndefined();
    const pattern = new RegExp(String(schema.pattern), 'u');
    for (const [tz, canonical] of [
      ['US/Pacific', 'America/Los_Angeles'],
      ['utc', 'UTC'],
      ['Etc/GMT+5', 'Etc/GMT+5'],
      ['Europe/Berlin', 'Europe/Berlin'],
    ] as const) {
      expect({ tz, documented: pattern.test(tz), timezone: (await stats(a.ownerCaller, `?tz=${encodeURIComponent(tz)}`)).timezone }).toEqual({
        tz,
        documented: true,
        timezone: canonical,
      });
    }
    // What the pattern refuses, the service refuses too.
    for (const tz of ['../../etc/passwd', 'x'.repeat(80), 'Europe/Berlin\u00e9', ''])
      expect({ tz, documented: pattern.test(tz) }).toEqual({ tz, documented: false });
  });

  it('answers a repeated query parameter with 400, not a 500', async () => {
    const res = await call(t, a.ownerCaller, 'get', '/api/inbox/stats?days=3&days=4');
    expect(res.status).toBe(400);
  });
});
