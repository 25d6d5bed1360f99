import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxFactories } from '../support/inbox-factories.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from './inbox-http.js';

const idsOf = (body: { id: string }[]): string[] => body.map((c) => c.id).sort();

// Removing a member must not leave conversations assigned to someone who is gone: agents only see
// unassigned conversations and their own, so those would be invisible to every agent.
describe('removing a member', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  const open: SseClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
  });
  afterEach(() => {
    open.splice(0).forEach((client) => client.close());
  });
  afterAll(async () => {
    await t?.close();
  });

  it("unassigns the member's conversations in that workspace, shows them to other agents and tells open Consoles", async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const ws = workspace.id;
    const asOwner: Caller = { cookie: owner.cookie, workspaceId: ws };
    const leaving = await t.factories.signedInMember(ws, 'agent');
    const colleague = await t.factories.signedInMember(ws, 'agent');
    const asColleague: Caller = { cookie: colleague.cookie, workspaceId: ws };
    const [first, second, colleagues, unassigned] = [
      await inbox.conversation(ws),
      await inbox.conversation(ws),
      await inbox.conversation(ws),
      await inbox.conversation(ws),
    ];
    for (const [conversation, user] of [
      [first, leaving],
      [second, leaving],
      [colleagues, colleague],
    ] as const) {
      await call(t, asOwner, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: user.id }).expect(200);
    }
    // The same person also works in another workspace, where they stay.
    const other = await t.factories.workspaceWithOwner();
    await t.factories.member(other.workspace.id, leaving.id, 'agent');
    const elsewhere = await inbox.conversation(other.workspace.id);
    await call(t, { cookie: other.owner.cookie, workspaceId: other.workspace.id }, 'post', `/api/conversations/${elsewhere.id}/assign`, {
      user_id: leaving.id,
    }).expect(200);

    const before = await call(t, asColleague, 'get', '/api/conversations').expect(200);
    expect(idsOf(before.body)).toEqual(idsOf([colleagues, unassigned]));
    const stream = await openSse(`${await listenUrl(t.app)}/api/events`, { Cookie: colleague.cookie, 'X-Tenant-ID': ws });
    open.push(stream);
    expect(stream.status).toBe(200);
    await stream.waitFor('the stream to open', (c) => c.comments.includes(' connected'));

    const removed = await call(t, asOwner, 'delete', `/api/members/${leaving.id}`);
    expect([removed.status, removed.body]).toEqual([200, { ok: true }]);

    const after = await call(t, asColleague, 'get', '/api/conversations').expect(200);
    expect(idsOf(after.body)).toEqual(idsOf([first, second, colleagues, unassigned]));
    const assignees: { id: string; assignee_id: string | null }[] = await t.dataSource.query(
      'SELECT id, assignee_id FROM conversations WHERE id = ANY($1) ORDER BY id',
      [[first.id, second.id, colleagues.id, elsewhere.id]],
    );
    expect(assignees).toEqual(
      [
        { id: first.id, assignee_id: null },
        { id: second.id, assignee_id: null },
        { id: colleagues.id, assignee_id: colleague.id },
        { id: elsewhere.id, assignee_id: leaving.id },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );

    // The colleague's Console learns about the two conversations it can now see.
    await stream.waitFor('both updates', (c) => c.events.filter((e) => e.event === 'conversation.updated').length >= 2);
    const updates = stream.events.filter((e) => e.event === 'conversation.updated').map((e) => dataOf<{ id: string; assignee_id: string | null }>(e));
    expect(updates.map((u) => u.id).sort()).toEqual(idsOf([first, second]));
    expect(updates.every((u) => u.assignee_id === null)).toBe(true);
  });
});
