import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BAD_FROM, BAD_TIME_ZONE, BAD_TO, FROM_AFTER_TO, RANGE_TOO_LONG } from '../../src/modules/reports/report-range.js';
import { REPORTS_FOR_ADMINS } from '../../src/modules/reports/reports.service.js';
import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';
import { DAY_MS, isoDay, report as readReport, type Report, team as makeTeam, type Team } from './reports-support.js';

describe('GET /api/reports/conversations: days, range, access', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;

  beforeAll(async () => {
    t = await createTestApp({ providers: [FakeChannelGateway] });
    inbox = new InboxFactories(t.app);
    gateway = t.app.get(FakeChannelGateway);
  });
  afterAll(async () => {
    await t?.close();
  });

  const team = (): Promise<Team> => makeTeam(t, gateway);
  const report = (caller: Caller, query = ''): Promise<Report> => readReport(t, caller, query);

  it('counts the days in the time zone asked for, from and to inclusive', async () => {
    const w = await team();
    // Two days ago at 23:30 UTC: that day in UTC, the next one in Tokyo (UTC+9, no daylight saving).
    const startOfToday = Date.parse(`${isoDay(Date.now())}T00:00:00Z`);
    const late = startOfToday - 2 * DAY_MS + 23.5 * 3600_000;
    const noon = startOfToday - DAY_MS + 12 * 3600_000;
    await inbox.message(w.workspaceId, { timestamp: new Date(late) });
    await inbox.message(w.workspaceId, { timestamp: new Date(noon) });
    const [d2, d1] = [isoDay(startOfToday - 2 * DAY_MS), isoDay(startOfToday - DAY_MS)];

    const utc = await report(w.owner, `?from=${d2}&to=${d1}`);
    expect(utc).toMatchObject({ timezone: 'UTC', from: d2, to: d1 });
    expect(utc.days.map((d) => [d.date, d.opened])).toEqual([
      [d2, 1],
      [d1, 1],
    ]);
    const tokyo = await report(w.owner, `?from=${d2}&to=${d1}&tz=Asia/Tokyo`);
    expect(tokyo.timezone).toBe('Asia/Tokyo');
    expect(tokyo.days.map((d) => [d.date, d.opened])).toEqual([
      [d2, 0],
      [d1, 2],
    ]);
    expect(tokyo.totals.opened).toBe(2);
    // An alias answers its canonical name; one day is a range too.
    const alias = await report(w.owner, `?from=${d1}&to=${d1}&tz=Japan`);
    expect(alias).toMatchObject({ timezone: 'Asia/Tokyo', from: d1, to: d1 });
    expect(alias.days).toHaveLength(1);
    // Only `to`: the 14 days up to it.
    const toOnly = await report(w.owner, `?to=${d1}`);
    expect(toOnly.days).toHaveLength(14);
    expect(toOnly.from).toBe(isoDay(startOfToday - 14 * DAY_MS));
  });

  it('lets owners, admins and API keys (read keys too) read the workspace’s own report; agents get 403', async () => {
    const w = await team();
    const other = await team();
    await inbox.message(w.workspaceId);
    for (const caller of [w.owner, w.admin, w.key, w.readKey]) expect((await report(caller)).totals.opened).toBe(1);
    expect((await report(other.key)).totals.opened).toBe(0);
    const res = await call(t, w.agent, 'get', '/api/reports/conversations');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: REPORTS_FOR_ADMINS });
    expect((await t.http().get('/api/reports/conversations')).status).toBe(401);
  });

  it.each([
    ['from=2026-02-30', BAD_FROM],
    ['from=2026-1-01', BAD_FROM],
    ['from=', BAD_FROM],
    ['from=yesterday', BAD_FROM],
    ['from=1899-12-31', BAD_FROM],
    ['from=2026-01-01&from=2026-01-02', BAD_FROM],
    ['to=2026-13-01', BAD_TO],
    ['to=20260101', BAD_TO],
    ['from=2026-03-02&to=2026-03-01', FROM_AFTER_TO],
    ['from=2025-01-01&to=2026-01-02', RANGE_TOO_LONG],
    ['tz=Mars/Phobos', BAD_TIME_ZONE],
    ["tz=UTC'; DROP TABLE conversations; --", BAD_TIME_ZONE],
  ])('answers ?%s with 400', async (query, text) => {
    const w = await team();
    const res = await call(t, w.owner, 'get', `/api/reports/conversations?${encodeURI(query)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: text });
  });

  it('accepts 366 days (a leap year) and no more', async () => {
    const w = await team();
    const body = await report(w.owner, '?from=2024-01-01&to=2024-12-31');
    expect(body.days).toHaveLength(366);
    expect(body.days[59]!.date).toBe('2024-02-29');
  });
});
