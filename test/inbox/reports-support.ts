import { expect } from '@jest/globals';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import type { TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

interface Durations {
  count: number;
  median_s: number | null;
  average_s: number | null;
}

/** GET /api/reports/conversations (docs/inbox.md, "Reports"). */
export interface Report {
  timezone: string;
  from: string;
  to: string;
  totals: { opened: number; closed: number; first_response: Durations; resolution: Durations };
  days: { date: string; opened: number; closed: number; first_response_median_s: number | null; resolution_median_s: number | null }[];
  agents: {
    user_id: string;
    name: string;
    closed: number;
    first_responses: number;
    first_response_median_s: number | null;
    resolution_median_s: number | null;
  }[];
}

/** A workspace with every kind of caller. */
export interface Team {
  workspaceId: string;
  owner: Caller;
  ownerId: string;
  admin: Caller;
  agent: Caller;
  agentId: string;
  agentName: string;
  key: Caller;
  readKey: Caller;
}

export const DAY_MS = 86_400_000;
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A fresh workspace (so its figures are one test's alone) with an owner, an admin, an agent and two keys; its channel connected. */
export async function team(t: TestApp, gateway: FakeChannelGateway): Promise<Team> {
  const { workspace, owner, key } = await t.factories.workspaceWithOwner();
  const admin = await t.factories.signedInMember(workspace.id, 'admin');
  const agent = await t.factories.signedInMember(workspace.id, 'agent');
  const readKey = await t.factories.apiKey(workspace.id, 'read');
  gateway.connect(workspace.id);
  const session = (cookie: string): Caller => ({ cookie, workspaceId: workspace.id });
  return {
    workspaceId: workspace.id,
    owner: session(owner.cookie),
    ownerId: owner.id,
    admin: session(admin.cookie),
    agent: session(agent.cookie),
    agentId: agent.id,
    agentName: agent.name,
    key: { key },
    readKey: { key: readKey.key },
  };
}

/** The report as `caller` reads it (expects 200). */
export async function report(t: TestApp, caller: Caller, query = ''): Promise<Report> {
  const res = await call(t, caller, 'get', `/api/reports/conversations${query}`);
  expect(res.status).toBe(200);
  return res.body as Report;
}
