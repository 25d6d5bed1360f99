import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import type { ConversationEntity } from '../../src/modules/inbox/entities/conversation.entity.js';
import { InboxEvents } from '../../src/modules/inbox/inbox-events.service.js';
import { MessageStatusService } from '../../src/modules/inbox/messages/message-status.service.js';
import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { dataOf, kept, listenUrl, openSse, type SseClient, type SseEvent } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { call, type Caller } from '../inbox/inbox-http.js';

type Member = Awaited<ReturnType<TestApp['factories']['signedInMember']>>;

/** The conversation an event is about; undefined for workspace-wide events. */
const conversationOf = (event: SseEvent): string | undefined => {
  if (event.event === 'conversation.updated') return dataOf(event).id as string;
  if (event.event.startsWith('message.')) return dataOf(event).conversation_id as string;
  return undefined;
};
const aboutConversations = (client: SseClient): SseEvent[] => client.events.filter((e) => conversationOf(e) !== undefined);
const marks = (client: SseClient): unknown[] => client.events.map((e) => (e.event === 'session.updated' ? dataOf(e).mark : undefined));

/**
 * Agents see unassigned conversations and their own over REST; the event stream must not show
 * them more. Everything goes through the real inbox (ingest, REST send/assign/read, receipts), so
 * these tests also prove the inbox hands each event its conversation's assignee.
 */
describe('GET /api/events: what agents receive', () => {
  let t: TestApp;
  let base: string;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;
  let live: LiveEventsService;
  const open: SseClient[] = [];

  let ws: string;
  let owner: Caller & { cookie: string };
  let admin: Member;
  let key: string;
  let agentA: Member;
  let agentB: Member;
  let unassigned: ConversationEntity;
  let toA: ConversationEntity;
  let toB: ConversationEntity;

  const connect = async (headers: Record<string, string>): Promise<SseClient> => {
    const client = await openSse(`${base}/api/events`, headers);
    expect(client.status).toBe(200);
    open.push(client);
    return client;
  };
  const session = (member: { cookie: string }, lastEventId?: string): Record<string, string> => ({
    Cookie: member.cookie,
    'X-Tenant-ID': ws,
    ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
  });
  const bearer = (lastEventId?: string): Record<string, string> => ({
    Authorization: `Bearer ${key}`,
    ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
  });

  /** Every kind of inbox event on `conversation`: created, updated, receipts, read. */
  const activity = async (conversation: ConversationEntity): Promise<void> => {
    await inbox.message(ws, { phone: conversation.chatJid.split('@')[0]! }); // message.created + conversation.updated
    const sent = await call(t, owner, 'post', `/api/conversations/${conversation.id}/messages`, { body: 'hi there' }).expect(201);
    const externalId = gateway.sent.at(-1)!.externalId;
    expect(sent.body.id).toBeDefined();
    // A receipt from the channel: the inbox has only the message, not its conversation.
    expect(await t.app.get(MessageStatusService).updateStatus(ws, 'scan', externalId, 'delivered')).not.toBeNull();
    await call(t, owner, 'post', `/api/conversations/${conversation.id}/read`).expect(200);
  };

  /** An event for everyone after the others: once a client has it, it has all it will get before it. */
  const barrier = async (clients: SseClient[], mark: string): Promise<string> => {
    const id = await kept(live.append(ws, 'session.updated', { mark }));
    for (const client of clients) await client.waitFor(mark, (c) => marks(c).includes(mark));
    return id;
  };

  /** The events `viewer` should get out of what an owner got, in the same order with the same ids. */
  const visibleTo = (all: SseEvent[], ...conversations: ConversationEntity[]): SseEvent[] =>
    all.filter((e) => conversations.some((c) => c.id === conversationOf(e)));

  const ids = (events: SseEvent[]): (string | undefined)[] => events.map((e) => e.id);

  beforeAll(async () => {
    t = await createTestApp({ providers: [FakeChannelGateway] });
    base = await listenUrl(t.app);
    inbox = new InboxFactories(t.app);
    gateway = t.app.get(FakeChannelGateway);
    live = t.app.get(LiveEventsService);
  });
  beforeEach(async () => {
    const created = await t.factories.workspaceWithOwner();
    ws = created.workspace.id;
    key = created.key;
    owner = { cookie: created.owner.cookie, workspaceId: ws };
    admin = await t.factories.signedInMember(ws, 'admin');
    agentA = await t.factories.signedInMember(ws, 'agent');
    agentB = await t.factories.signedInMember(ws, 'agent');
    gateway.connect(ws);
    unassigned = await inbox.conversation(ws);
    toA = await inbox.conversation(ws);
    toB = await inbox.conversation(ws);
    await call(t, owner, 'post', `/api/conversations/${toA.id}/assign`, { user_id: agentA.id }).expect(200);
    await call(t, owner, 'post', `/api/conversations/${toB.id}/assign`, { user_id: agentB.id }).expect(200);
  });
  afterEach(() => {
    open.splice(0).forEach((client) => client.close());
    gateway.reset();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('live: an agent gets unassigned conversations and its own; owners, admins and keys get all', async () => {
    const [asOwner, asAdmin, asKey, asA, asB] = await Promise.all([
      connect(session(owner)),
      connect(session(admin)),
      connect(bearer()),
      connect(session(agentA)),
      connect(session(agentB)),
    ]);
    for (const conversation of [unassigned, toA, toB]) await activity(conversation);
    await barrier([asOwner, asAdmin, asKey, asA, asB], 'end');

    const all = aboutConversations(asOwner);
    // Per conversation: message.created + conversation.updated (ingest), message.created +
    // conversation.updated + message.updated (send), message.updated (receipt), conversation.updated (read).
    expect(all).toHaveLength(3 * 7);
    expect(new Set(all.map(conversationOf))).toEqual(new Set([unassigned.id, toA.id, toB.id]));
    expect(ids(aboutConversations(asAdmin))).toEqual(ids(all));
    expect(ids(aboutConversations(asKey))).toEqual(ids(all));

    expect(ids(aboutConversations(asA))).toEqual(ids(visibleTo(all, unassigned, toA)));
    expect(ids(aboutConversations(asB))).toEqual(ids(visibleTo(all, unassigned, toB)));
    // Every kind of event of their own conversation reaches them, receipts included.
    expect(new Set(visibleTo(aboutConversations(asA), toA).map((e) => e.event))).toEqual(
      new Set(['message.created', 'message.updated', 'conversation.updated']),
    );
    // Workspace-wide events still reach agents.
    for (const client of [asA, asB]) expect(marks(client)).toContain('end');
  });

  it('replay: Last-Event-ID replays only what the agent may see, then goes live with the same rule', async () => {
    // The clients watched a moment ago (a workspace nobody watches keeps no replay).
    await live.markWatched([ws]);
    const from = await kept(live.append(ws, 'session.updated', { mark: 'from' }));
    for (const conversation of [unassigned, toA, toB]) await activity(conversation);
    await kept(live.append(ws, 'session.updated', { mark: 'replayed' }));

    const [asOwner, asAdmin, asKey, asA, asB] = await Promise.all([
      connect(session(owner, from)),
      connect(session(admin, from)),
      connect(bearer(from)),
      connect(session(agentA, from)),
      connect(session(agentB, from)),
    ]);
    const clients = [asOwner, asAdmin, asKey, asA, asB];
    for (const client of clients) await client.waitFor('the replay', (c) => marks(c).includes('replayed'));
    // Then live: the last conversation events before the barrier are hidden from both agents.
    await activity(toB);
    await activity(toA);
    await activity(unassigned);
    await barrier(clients, 'end');

    const all = aboutConversations(asOwner);
    expect(all).toHaveLength(6 * 7);
    expect(ids(aboutConversations(asAdmin))).toEqual(ids(all));
    expect(ids(aboutConversations(asKey))).toEqual(ids(all));
    expect(ids(aboutConversations(asA))).toEqual(ids(visibleTo(all, unassigned, toA)));
    expect(ids(aboutConversations(asB))).toEqual(ids(visibleTo(all, unassigned, toB)));
    for (const client of clients) {
      // Nothing twice, nothing out of order, across replay and live.
      expect(new Set(ids(client.events)).size).toBe(client.events.length);
      expect(marks(client).filter((m) => m !== undefined)).toEqual(['replayed', 'end']);
    }
  });

  it('an agent resuming after an event it never got (a hidden one) misses nothing visible and gets nothing twice', async () => {
    const asOwner = await connect(session(owner));
    await activity(toB);
    await barrier([asOwner], 'hidden done');
    // The id of an event the agent was not allowed to see, e.g. from a Console shared by an admin.
    const hiddenId = aboutConversations(asOwner).at(-1)!.id!;
    await activity(toA);
    await barrier([asOwner], 'visible done');

    const asA = await connect(session(agentA, hiddenId));
    await asA.waitFor('the replay', (c) => marks(c).includes('visible done'));
    expect(ids(aboutConversations(asA))).toEqual(ids(visibleTo(aboutConversations(asOwner), toA)));
    expect(marks(asA).filter((m) => m !== undefined)).toEqual(['hidden done', 'visible done']);
  });

  it('a conversation assigned away from an agent: they are told once, then nothing more of it reaches them', async () => {
    const [asOwner, asA, asB] = await Promise.all([connect(session(owner)), connect(session(agentA)), connect(session(agentB))]);
    await call(t, owner, 'post', `/api/conversations/${toA.id}/assign`, { user_id: agentB.id }).expect(200);
    await barrier([asOwner, asA, asB], 'assigned');
    // The agent losing it gets the re-assignment itself, so its Console can drop the row.
    const told = aboutConversations(asA);
    expect(told.map((e) => e.event)).toEqual(['conversation.updated']);
    expect(dataOf(told[0]!)).toMatchObject({ id: toA.id, assignee_id: agentB.id });
    const skip = told.length;
    await activity(toA);
    await barrier([asOwner, asA, asB], 'end');

    expect(aboutConversations(asA).slice(skip)).toEqual([]);
    expect(ids(visibleTo(aboutConversations(asB), toA))).toEqual(ids(visibleTo(aboutConversations(asOwner), toA)));
    expect(dataOf(visibleTo(aboutConversations(asB), toA)[0]!)).toMatchObject({ id: toA.id, assignee_id: agentB.id });
  });

  it('InboxEvents.conversationUpdated with previousAssigneeId also reaches who could see it before', async () => {
    const agentC = await t.factories.signedInMember(ws, 'agent');
    const [asA, asB, asC] = await Promise.all([connect(session(agentA)), connect(session(agentB)), connect(session(agentC))]);
    const events = t.app.get(InboxEvents);
    // From A to B: A's Console learns it is gone; C never saw it and learns nothing.
    await events.conversationUpdated(ws, { ...toA, assigneeId: agentB.id }, { previousAssigneeId: agentA.id });
    // Taken from the unassigned pool: every agent saw it until now, so every agent learns of it.
    await events.conversationUpdated(ws, { ...unassigned, assigneeId: agentB.id }, { previousAssigneeId: null });
    // Not a re-assignment: only the assignee.
    await events.conversationUpdated(ws, { ...toB, assigneeId: agentB.id }, { previousAssigneeId: agentB.id });
    await barrier([asA, asB, asC], 'end');

    const seen = (client: SseClient): string[] => aboutConversations(client).map((e) => conversationOf(e)!);
    expect(seen(asA)).toEqual([toA.id, unassigned.id]);
    expect(seen(asB)).toEqual([toA.id, unassigned.id, toB.id]);
    expect(seen(asC)).toEqual([unassigned.id]);
  });

  describe('wire format', () => {
    it('an event for everyone keeps the old pub/sub message; one with an audience names it on the name line', () => {
      expect(live.decode('1-0\nmessage.created\n{"a":1}')).toEqual({ id: '1-0', name: 'message.created', json: '{"a":1}' });
      expect(live.decode('1-1\nmessage.updated u1,u2\n{"a":1}')).toEqual({
        id: '1-1',
        name: 'message.updated',
        json: '{"a":1}',
        audience: ['u1', 'u2'],
      });
      expect(live.decode('1-2\nmessage.unknown u1\n{}')).toBeUndefined();
    });

    it('refuses an audience id that could not travel intact instead of sending it to everyone', async () => {
      await expect(live.append(ws, 'conversation.updated', {}, { assigneeId: 'a,b' })).rejects.toThrow(/invalid audience/);
    });
  });
});
