import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AUTOMATED_CACHE_MS, AutomatedWorkspaces } from '../../src/modules/content/automations/automated-workspaces.js';
import { AutomationEngine } from '../../src/modules/content/automations/automation-engine.js';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';
import { call } from '../inbox/inbox-http.js';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { type InboxFactories, randomPhone } from '../support/inbox-factories.js';
import type { TestApp } from '../support/test-app.js';
import { type ContentWorkspace, contentWorkspace, createContentApp } from './content-support.js';

type Inbound = Partial<InboundMessage> & { phone?: string };

describe('automations: the engine on the ingest pipeline', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;
  let ws: ContentWorkspace;

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createContentApp());
  });
  beforeEach(async () => {
    gateway.reset();
    ws = await contentWorkspace(t);
    gateway.connect(ws.workspaceId);
  });
  afterAll(async () => {
    await t?.close();
  });

  const automate = async (body: object): Promise<string> => {
    const res = await call(t, ws.owner, 'post', '/api/automations', { name: 'rule', trigger: 'message.inbound', ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Ingests like a channel would and waits until the automations of the message have run. */
  async function receive(overrides: Inbound = {}) {
    const result = await inbox.message(ws.workspaceId, overrides);
    await waitFor('the automations of the message', async () => {
      const rows: { done: boolean }[] = await t.dataSource.query(`SELECT done_at IS NOT NULL AS done FROM automation_triggers WHERE message_id = $1`, [
        result.message.id,
      ]);
      return rows[0]?.done === true;
    });
    return result;
  }

  /** The texts the channel was asked to send into a conversation, in order. */
  const repliesIn = (conversationId: string): string[] =>
    gateway.sent.filter((s) => s.conversation.id === conversationId).map((s) => (s.outgoing.type === 'text' ? s.outgoing.body : `[${s.outgoing.type}]`));

  it('answers a keyword end to end: inbound through the pipeline, reply through the channel, stored as outbound', async () => {
    await automate({ conditions: [{ field: 'content', op: 'contains', value: 'price' }], actions: [{ type: 'reply', body: 'Our prices start at 10 EUR.' }] });
    const { conversation } = await receive({ content: "What's the PRICE of the blue one?" });
    expect(repliesIn(conversation.id)).toEqual(['Our prices start at 10 EUR.']);
    const page = await call(t, ws.key, 'get', `/api/conversations/${conversation.id}/messages`);
    expect(page.body.messages[0]).toMatchObject({
      direction: 'outbound',
      content: 'Our prices start at 10 EUR.',
      status: 'sent',
      chat_message_id: expect.stringMatching(/^FAKE/),
    });

    const other = await receive({ content: 'hello there' });
    expect(repliesIn(other.conversation.id)).toEqual([]);
  });

  describe('conditions', () => {
    const cases: [string, object, Inbound[], boolean[]][] = [
      [
        'content contains (any case)',
        { field: 'content', op: 'contains', value: 'Refund' },
        [{ content: 'I want a REFUND now' }, { content: 'refun' }],
        [true, false],
      ],
      [
        'content equals (whole text, any case, trimmed)',
        { field: 'content', op: 'equals', value: 'stop' },
        [{ content: ' STOP ' }, { content: 'stop it' }],
        [true, false],
      ],
      [
        'content starts_with',
        { field: 'content', op: 'starts_with', value: 'order #' },
        [{ content: 'Order #123 status?' }, { content: 'my order #123' }],
        [true, false],
      ],
      [
        'content matches (a regular expression, any case)',
        { field: 'content', op: 'matches', value: '^\\s*(hi|hello)\\b' },
        [{ content: 'Hello, anyone?' }, { content: 'well hello' }, { content: 'history' }],
        [true, false, false],
      ],
      [
        'chat_phone equals (digits)',
        { field: 'chat_phone', op: 'equals', value: '+49 151 000 111' },
        [{ phone: '49151000111' }, { phone: '49151000112' }],
        [true, false],
      ],
      [
        'chat_phone equals (trunk zero)',
        { field: 'chat_phone', op: 'equals', value: '+49 (0) 151 000 111' },
        [{ phone: '49151000111' }, { phone: '490151000111' }],
        [true, false],
      ],
      [
        'chat_phone equals (call prefix 00)',
        { field: 'chat_phone', op: 'equals', value: '0049 151 000 111' },
        [{ phone: '49151000111' }, { phone: '49151000112' }],
        [true, false],
      ],
      ['chat_phone starts_with', { field: 'chat_phone', op: 'starts_with', value: '+44' }, [{ phone: '447700900123' }, { phone: '4915100' }], [true, false]],
      ['chat_phone contains', { field: 'chat_phone', op: 'contains', value: '900' }, [{ phone: '447700900123' }, { phone: '4915100' }], [true, false]],
      [
        'chat_phone contains (a part, taken as its digits)',
        { field: 'chat_phone', op: 'contains', value: '0012' },
        [{ phone: '4915100123' }, { phone: '4915112300' }],
        [true, false],
      ],
      ['chat_phone matches', { field: 'chat_phone', op: 'matches', value: '^1\\d{10}$' }, [{ phone: '12025550123' }, { phone: '120255501234' }], [true, false]],
      ['is_group equals', { field: 'is_group', op: 'equals', value: true }, [{ chatJid: '120363000000000001@g.us', isGroup: true }, {}], [true, false]],
      [
        'message_type equals',
        { field: 'message_type', op: 'equals', value: 'image' },
        [{ type: 'image', content: 'look' }, { content: 'look' }],
        [true, false],
      ],
      [
        'message_type starts_with',
        { field: 'message_type', op: 'starts_with', value: 'doc' },
        [{ type: 'document', media: { fileName: 'a.pdf' } }, { type: 'image' }],
        [true, false],
      ],
      // A voice note is a `document` to message_type; `kind` tells it from a file.
      [
        'kind equals',
        { field: 'kind', op: 'equals', value: 'voice' },
        [
          { type: 'voice', durationS: 4 },
          { type: 'document', media: { fileName: 'a.pdf' } },
        ],
        [true, false],
      ],
      ['message_type of a voice note', { field: 'message_type', op: 'equals', value: 'document' }, [{ type: 'voice' }, { type: 'location' }], [true, false]],
    ];

    it.each(cases)('%s', async (_name, condition, messages, expected) => {
      await automate({ conditions: [condition], actions: [{ type: 'reply', body: 'matched' }] });
      const replied: boolean[] = [];
      for (const message of messages) {
        const { conversation } = await receive(message);
        replied.push(repliesIn(conversation.id).length === 1);
      }
      expect(replied).toEqual(expected);
    });

    it('match all needs every condition, match any one of them, none means always', async () => {
      const conditions = [
        { field: 'content', op: 'contains', value: 'invoice' },
        { field: 'content', op: 'contains', value: 'urgent' },
      ];
      await automate({ match: 'all', conditions, actions: [{ type: 'reply', body: 'all' }] });
      await automate({ match: 'any', conditions, actions: [{ type: 'reply', body: 'any' }] });
      await automate({ conditions: [], actions: [{ type: 'reply', body: 'always' }] });
      const both = await receive({ content: 'URGENT: invoice missing' });
      const one = await receive({ content: 'where is my invoice' });
      const none = await receive({ content: 'hello' });
      expect(repliesIn(both.conversation.id)).toEqual(['all', 'any', 'always']);
      expect(repliesIn(one.conversation.id)).toEqual(['any', 'always']);
      expect(repliesIn(none.conversation.id)).toEqual(['always']);
    });
  });

  describe('actions', () => {
    it('reply_template sends the filled-in template', async () => {
      const { body: template } = await call(t, ws.owner, 'post', '/api/templates', { name: 'hours', body: 'Hi! We are open {{1}} to {{2}}.' });
      await automate({ actions: [{ type: 'reply_template', template_id: template.id, parameters: ['9', '17'] }] });
      const { conversation } = await receive({ content: 'when are you open?' });
      expect(repliesIn(conversation.id)).toEqual(['Hi! We are open 9 to 17.']);
    });

    it('assign gives the conversation to a member, mark_read reads it (with receipts)', async () => {
      const agent = await t.factories.user();
      await t.factories.member(ws.workspaceId, agent.id, 'agent');
      await automate({ actions: [{ type: 'assign', user_id: agent.id }, { type: 'mark_read' }] });
      const { conversation, message } = await receive({ content: 'hi' });
      const res = await call(t, ws.owner, 'get', `/api/conversations/${conversation.id}`);
      expect(res.body).toMatchObject({ assignee_id: agent.id, unread_count: 0 });
      expect(gateway.reads).toEqual([expect.objectContaining({ workspaceId: ws.workspaceId, messageIds: [message.externalId] })]);
    });

    it('answer_from_knowledge replies with the best article above the threshold, and stays quiet below it', async () => {
      const articles = [
        { title: 'Refund policy', body: 'You can ask for a refund within 30 days of purchase.' },
        { title: 'Opening hours', body: 'Our shop is open Monday to Friday from 9 to 17. On Saturday we open at 10.' },
      ];
      for (const article of articles) await call(t, ws.owner, 'post', '/api/knowledge', article).expect(201);
      await automate({ actions: [{ type: 'answer_from_knowledge' }] });

      const refund = await receive({ content: 'How do I get a refund for my order?' });
      const saturday = await receive({ content: 'hi, when are you open on saturday?' });
      // Shares only a common body word ("days") with an article: ranks below the default 0.15.
      const weak = await receive({ content: 'I love the long days of summer' });
      const nothing = await receive({ content: 'thanks, bye' });
      expect(repliesIn(refund.conversation.id)).toEqual([articles[0]!.body]);
      expect(repliesIn(saturday.conversation.id)).toEqual([articles[1]!.body]);
      expect(repliesIn(weak.conversation.id)).toEqual([]);
      expect(repliesIn(nothing.conversation.id)).toEqual([]);

      // The search reports the rank the threshold is compared with.
      const hits = (await call(t, ws.key, 'get', `/api/knowledge/search?q=${encodeURIComponent('refund or order')}`)).body as { rank: number }[];
      expect(hits[0]!.rank).toBeGreaterThanOrEqual(0.15);
    });

    it("answer_from_knowledge's own min_rank overrides the default", async () => {
      await call(t, ws.owner, 'post', '/api/knowledge', { title: 'Refund policy', body: 'Refunds within 30 days.' }).expect(201);
      await automate({ actions: [{ type: 'answer_from_knowledge', min_rank: 0.95 }] });
      const strict = await receive({ content: 'refund please' });
      expect(repliesIn(strict.conversation.id)).toEqual([]);
    });

    it('a failing action is logged and the next one still runs', async () => {
      const member = await t.factories.user();
      await t.factories.member(ws.workspaceId, member.id, 'agent');
      await automate({
        actions: [
          { type: 'assign', user_id: member.id },
          { type: 'reply', body: 'still here' },
        ],
      });
      // The member leaves after the automation was saved: the assign fails at run time.
      await t.dataSource.query('DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2', [ws.workspaceId, member.id]);
      const { conversation } = await receive({ content: 'x' });
      expect(repliesIn(conversation.id)).toEqual(['still here']);
    });
  });

  describe('triggers and order', () => {
    it('conversation.created runs on the first message of a new chat only, before message.inbound ones', async () => {
      await automate({ name: 'every message', actions: [{ type: 'reply', body: 'got it' }] });
      await automate({ name: 'welcome', trigger: 'conversation.created', actions: [{ type: 'reply', body: 'welcome!' }] });
      const phone = randomPhone();
      const first = await receive({ phone, content: 'hi' });
      await receive({ phone, content: 'hi again' });
      expect(repliesIn(first.conversation.id)).toEqual(['welcome!', 'got it', 'got it']);

      // A chat the workspace started (POST /api/conversations) is not created by the customer's reply.
      const started = await call(t, ws.key, 'post', '/api/conversations', { phone: randomPhone(), body: 'Hello from us' });
      const reply = await receive({ phone: started.body.conversation.chat_phone, content: 'hello back' });
      expect(reply.conversation.id).toBe(started.body.conversation.id);
      expect(repliesIn(reply.conversation.id)).toEqual(['Hello from us', 'got it']);
    });

    it('runs enabled automations in a stable order: oldest first', async () => {
      for (const name of ['first', 'second', 'third']) await automate({ name, actions: [{ type: 'reply', body: name }] });
      const disabled = await automate({ name: 'off', enabled: false, actions: [{ type: 'reply', body: 'off' }] });
      expect(disabled).toEqual(expect.any(String));
      for (let i = 0; i < 2; i++) {
        const { conversation } = await receive({ content: `round ${i}` });
        expect(repliesIn(conversation.id)).toEqual(['first', 'second', 'third']);
      }
    });

    it('never reacts to messages the workspace sent', async () => {
      await automate({ actions: [{ type: 'reply', body: 'echo?' }] });
      const phone = randomPhone();
      // From the phone itself, as the scan channel ingests it (no hooks) …
      const fromPhone = await inbox.ingest.ingest(ws.workspaceId, inbox.inbound({ phone, direction: 'outbound' }), { hooks: false });
      // … and even if a channel passed an outbound message with hooks on.
      const withHooks = await inbox.ingest.ingest(ws.workspaceId, inbox.inbound({ phone, direction: 'outbound' }));
      for (const message of [fromPhone.message, withHooks.message]) {
        expect(await inbox.count('automation_triggers WHERE message_id = $1', [message.id])).toBe(0);
      }
      // The next inbound message in that chat is answered once: the earlier ones left nothing behind.
      const inbound = await receive({ phone });
      expect(repliesIn(inbound.conversation.id)).toEqual(['echo?']);
    });

    it("sees another process's new automation within the cache time, its own at once", async () => {
      const automated = t.app.get(AutomatedWorkspaces);
      const now = Date.now();
      expect(await automated.has(ws.workspaceId, now)).toBe(false);
      // Written by another process (an api replica): this one learns it when its entry expires.
      await t.dataSource.query(`INSERT INTO automations (workspace_id, name, trigger, actions) VALUES ($1, 'x', 'message.inbound', '[{"type":"mark_read"}]')`, [
        ws.workspaceId,
      ]);
      expect(await automated.has(ws.workspaceId, now + AUTOMATED_CACHE_MS - 1)).toBe(false);
      expect(await automated.has(ws.workspaceId, now + AUTOMATED_CACHE_MS)).toBe(true);
      // Through the API of this process: at once.
      const other = await contentWorkspace(t);
      expect(await automated.has(other.workspaceId)).toBe(false);
      await call(t, other.owner, 'post', '/api/automations', { name: 'y', trigger: 'message.inbound', actions: [{ type: 'mark_read' }] }).expect(201);
      expect(await automated.has(other.workspaceId)).toBe(true);
    });

    it('leaves workspaces without enabled automations alone (no trigger rows)', async () => {
      await automate({ enabled: false, actions: [{ type: 'reply', body: 'never' }] });
      const { message } = await inbox.message(ws.workspaceId, { content: 'hi' });
      expect(await inbox.count('automation_triggers WHERE message_id = $1', [message.id])).toBe(0);
    });
  });

  it('loop guard: at most 5 automated replies per conversation per minute', async () => {
    await automate({ actions: [{ type: 'reply', body: 'auto' }] });
    const phone = randomPhone();
    let conversationId = '';
    for (let i = 0; i < 7; i++) conversationId = (await receive({ phone, content: `ping ${i}` })).conversation.id;
    expect(repliesIn(conversationId)).toHaveLength(5);
    // Another conversation has its own budget.
    const other = await receive({ content: 'ping' });
    expect(repliesIn(other.conversation.id)).toEqual(['auto']);
    // Two replies per message use the budget twice as fast.
    await automate({ actions: [{ type: 'reply', body: 'auto 2' }] });
    const busy = randomPhone();
    let busyId = '';
    for (let i = 0; i < 4; i++) busyId = (await receive({ phone: busy, content: `ping ${i}` })).conversation.id;
    expect(repliesIn(busyId)).toEqual(['auto', 'auto 2', 'auto', 'auto 2', 'auto']);
  });

  it('a catastrophic pattern does not hang the worker: it times out, and everything after it still runs', async () => {
    await automate({ name: 'evil', conditions: [{ field: 'content', op: 'matches', value: '^(a+)+$' }], actions: [{ type: 'reply', body: 'evil matched' }] });
    await automate({ name: 'after', actions: [{ type: 'reply', body: 'after' }] });
    const started = Date.now();
    const { conversation } = await receive({ content: `${'a'.repeat(40)}!` });
    expect(repliesIn(conversation.id)).toEqual(['after']);
    // The same pattern on a text it decides at once still matches, on a fresh worker thread.
    const ok = await receive({ content: 'aaaa' });
    expect(repliesIn(ok.conversation.id)).toEqual(['evil matched', 'after']);
    // Bounded by the time limit (AUTOMATION_REGEX_TIMEOUT_MS), not by the pattern's 2^40 steps.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  describe('durability', () => {
    it('a trigger committed without its job (crash before the enqueue) is run by the sweeper', async () => {
      // Ingested before the automation existed, so no trigger rows yet.
      const { message, conversation } = await inbox.message(ws.workspaceId, { content: 'lost' });
      const { message: stale, conversation: staleConversation } = await inbox.message(ws.workspaceId, { content: 'ancient' });
      await automate({ actions: [{ type: 'reply', body: 'found you' }] });
      // What a crash right after the commit leaves: the row, no job.
      await t.dataSource.query(
        `INSERT INTO automation_triggers (message_id, workspace_id, conversation_created, created_at) VALUES ($1, $2, true, now() - interval '1 minute')`,
        [message.id, ws.workspaceId],
      );
      // Too old to be worth answering: given up, not run.
      await t.dataSource.query(
        `INSERT INTO automation_triggers (message_id, workspace_id, conversation_created, created_at) VALUES ($1, $2, true, now() - interval '1 hour')`,
        [stale.id, ws.workspaceId],
      );
      await t.app.get(AutomationEngine).sweep();
      await waitFor('the swept trigger', async () => repliesIn(conversation.id).length > 0);
      expect(repliesIn(conversation.id)).toEqual(['found you']);
      expect(repliesIn(staleConversation.id)).toEqual([]);
      expect(await inbox.count('automation_triggers WHERE message_id = $1 AND done_at IS NOT NULL', [stale.id])).toBe(1);
    });

    it('a job run again (retry after a crash mid-way) never repeats an automation', async () => {
      await automate({ actions: [{ type: 'reply', body: 'once' }] });
      const { message, conversation } = await receive({ content: 'hi' });
      // As if the worker died after the reply but before recording the end.
      await t.dataSource.query('UPDATE automation_triggers SET done_at = NULL WHERE message_id = $1', [message.id]);
      await t.app.get(AutomationEngine).run(ws.workspaceId, message.id);
      await t.app.get(AutomationEngine).run(ws.workspaceId, message.id);
      expect(repliesIn(conversation.id)).toEqual(['once']);
    });
  });
});
