import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { InboxChange, InboxChangeKind } from '../../src/modules/inbox/changes/inbox-change.js';
import { InboxChangeHooks } from '../../src/modules/inbox/changes/inbox-change-hooks.js';
import { MessageUpdatesService } from '../../src/modules/inbox/messages/message-updates.service.js';
import type { SqlExecutor } from '../../src/infra/database/sql-executor.js';
import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import type { InboxFactories } from '../support/inbox-factories.js';
import { createInboxTestApp } from '../support/inbox-test-app.js';
import type { TestApp } from '../support/test-app.js';
import { workspaceCallers } from './conversation-fixtures.js';
import { call } from './inbox-http.js';

/** What a hook saw: the change, a read inside its transaction, the same read from outside it. */
interface Seen {
  change: InboxChange;
  inside: unknown;
  outside: unknown;
}

// Inbox writes besides ingest (a status change, an assignment, an edit, a send, a member's
// removal) call the hooks of their change inside their own transaction, so what a hook writes
// (the webhook outbox's rows) commits with the change or not at all.
describe('inbox change hooks', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;
  let hooks: InboxChangeHooks;
  const unregister: (() => void)[] = [];

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
    hooks = t.app.get(InboxChangeHooks);
  });
  beforeEach(() => gateway.reset());
  afterEach(() => {
    for (const remove of unregister.splice(0)) remove();
  });
  afterAll(async () => {
    await t?.close();
  });

  const scalar = async (db: SqlExecutor | TestApp['dataSource'], sql: string, params: unknown[]): Promise<unknown> => {
    const rows = (await db.query(sql, params)) as Record<string, unknown>[];
    return rows[0] ? Object.values(rows[0])[0] : null;
  };

  /**
   * A hook for `kind` in `workspaceId` that reads `sql` inside the change's transaction and from
   * outside it (not committed yet: the value before), and throws when `fails` says so.
   */
  const watch = (workspaceId: string, kind: InboxChangeKind, sql: string, paramsOf: (change: InboxChange) => unknown[], fails = () => false) => {
    const seen: Seen[] = [];
    const committed: InboxChange[] = [];
    unregister.push(
      hooks.register({
        changes: [kind],
        inTransaction: async (ws, tx, change) => {
          if (ws !== workspaceId) return;
          seen.push({ change, inside: await scalar(tx, sql, paramsOf(change)), outside: await scalar(t.dataSource, sql, paramsOf(change)) });
          if (fails()) throw new Error('outbox write failed');
        },
        afterCommit: async (ws, change) => {
          if (ws === workspaceId) committed.push(change);
        },
      }),
    );
    return { seen, committed };
  };

  const conversationId = (change: InboxChange): unknown[] => [change.conversation.id];
  const STATUS = 'SELECT status FROM conversations WHERE id = $1';

  it('a status change reaches its hooks inside its transaction, then after the commit', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const conversation = await inbox.conversation(ws.id);
    const { seen, committed } = watch(ws.id, 'conversation.status', STATUS, conversationId);
    const other = watch(ws.id, 'conversation.assignee', STATUS, conversationId);

    const res = await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'closed' });
    expect([res.status, res.body.status]).toEqual([200, 'closed']);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      change: { kind: 'conversation.status', previousStatus: 'open', conversation: { id: conversation.id, status: 'closed' } },
      inside: 'closed',
      outside: 'open',
    });
    expect(committed).toEqual([seen[0]!.change]);
    // A hook of another change never hears of it.
    expect([other.seen, other.committed]).toEqual([[], []]);
  });

  it('a hook for a new message joins ingest’s transaction; a hook not wanting the workspace is left out', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const COUNT = 'SELECT count(*)::int FROM messages WHERE id = $1';
    const { seen, committed } = watch(ws.id, 'message.ingested', COUNT, (change) => ['message' in change ? change.message.id : null]);
    let asked = 0;
    unregister.push(
      hooks.register({
        changes: ['message.ingested', 'conversation.status'],
        wantsTransaction: async () => {
          asked++;
          return false;
        },
        inTransaction: async () => {
          throw new Error('never called: it wants no workspace');
        },
      }),
    );

    const { message, conversation } = await inbox.message(ws.id, { content: 'a new one' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ change: { kind: 'message.ingested', workspaceId: ws.id, message: { id: message.id } }, inside: 1, outside: 0 });
    expect(committed).toHaveLength(1);
    expect((await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'closed' })).status).toBe(200);
    expect(asked).toBe(2);
  });

  it('a hook that throws rolls the status change back', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const conversation = await inbox.conversation(ws.id);
    const { seen, committed } = watch(ws.id, 'conversation.status', STATUS, conversationId, () => true);

    const res = await call(t, keyCaller, 'patch', `/api/conversations/${conversation.id}`, { status: 'closed' });
    expect(res.status).toBe(500);
    expect(seen).toHaveLength(1);
    expect(committed).toEqual([]);
    expect(await scalar(t.dataSource, STATUS, [conversation.id])).toBe('open');
    expect((await call(t, keyCaller, 'get', `/api/conversations/${conversation.id}`)).body.status).toBe('open');
  });

  it('an assignment, and a member’s removal unassigning, reach the assignment hooks in their transactions', async () => {
    const { ws, ownerCaller } = await workspaceCallers(t);
    const conversation = await inbox.conversation(ws.id);
    const agent = await t.factories.signedInMember(ws.id, 'agent');
    const ASSIGNEE = 'SELECT assignee_id FROM conversations WHERE id = $1';
    const { seen, committed } = watch(ws.id, 'conversation.assignee', ASSIGNEE, conversationId);

    const assigned = await call(t, ownerCaller, 'post', `/api/conversations/${conversation.id}/assign`, { user_id: agent.id });
    expect([assigned.status, assigned.body.assignee_id]).toEqual([200, agent.id]);
    expect(seen[0]).toMatchObject({
      change: { kind: 'conversation.assignee', previousAssigneeId: null, conversation: { assigneeId: agent.id } },
      inside: agent.id,
      outside: null,
    });

    const removed = await call(t, ownerCaller, 'delete', `/api/members/${agent.id}`);
    expect(removed.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({
      change: { kind: 'conversation.assignee', previousAssigneeId: agent.id, conversation: { id: conversation.id, assigneeId: null } },
      inside: null,
      outside: agent.id,
    });
    expect(committed.map((change) => change.kind)).toEqual(['conversation.assignee', 'conversation.assignee']);
  });

  it('a channel’s edit reaches the edit hooks in its transaction; one that throws leaves the text as it was', async () => {
    const { ws } = await workspaceCallers(t);
    const { message } = await inbox.message(ws.id, { content: 'first words' });
    const CONTENT = 'SELECT content FROM messages WHERE id = $1';
    let fail = false;
    const { seen, committed } = watch(
      ws.id,
      'message.edited',
      CONTENT,
      (change) => ['message' in change ? change.message.id : null],
      () => fail,
    );
    const updates = t.app.get(MessageUpdatesService);

    // By the message's sender, in its chat.
    const source = { chatJid: message.senderJid, senderJid: message.senderJid, fromMe: false };
    await updates.edit(ws.id, 'scan', { ...source, targetExternalId: message.externalId!, content: 'second words' });
    expect(seen[0]).toMatchObject({
      change: { kind: 'message.edited', message: { id: message.id, content: 'second words' } },
      inside: 'second words',
      outside: 'first words',
    });
    expect(committed).toHaveLength(1);

    fail = true;
    await expect(updates.edit(ws.id, 'scan', { ...source, targetExternalId: message.externalId!, content: 'third words' })).rejects.toThrow(
      'outbox write failed',
    );
    expect(await scalar(t.dataSource, CONTENT, [message.id])).toBe('second words');
    expect(committed).toHaveLength(1);
  });

  it('a send stores its pending message with the outbound hooks; one that throws stores nothing and sends nothing', async () => {
    const { ws, keyCaller } = await workspaceCallers(t);
    const conversation = await inbox.conversation(ws.id);
    gateway.connect(ws.id);
    const COUNT = `SELECT count(*)::int FROM messages WHERE conversation_id = $1 AND direction = 'outbound'`;
    let fail = false;
    const { seen, committed } = watch(ws.id, 'message.outbound', COUNT, conversationId, () => fail);
    const path = `/api/conversations/${conversation.id}/messages`;

    const sent = await call(t, keyCaller, 'post', path, { body: 'hello back' });
    expect(sent.status).toBe(201);
    expect(seen[0]).toMatchObject({ change: { kind: 'message.outbound', message: { content: 'hello back', status: 'pending' } }, inside: 1, outside: 0 });
    expect(committed).toHaveLength(1);
    expect(gateway.sent).toHaveLength(1);

    fail = true;
    expect((await call(t, keyCaller, 'post', path, { body: 'never stored' })).status).toBe(500);
    expect(await scalar(t.dataSource, COUNT, [conversation.id])).toBe(1);
    expect(gateway.sent).toHaveLength(1);
  });
});
