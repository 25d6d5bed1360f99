import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { call } from '../inbox/inbox-http.js';
import type { TestApp } from '../support/test-app.js';
import { type ContentWorkspace, contentWorkspace, createContentApp } from './content-support.js';

const AUTOMATION_KEYS = ['actions', 'conditions', 'created_at', 'enabled', 'id', 'match', 'name', 'trigger', 'updated_at'];
const REPLY = [{ type: 'reply', body: 'Thanks!' }];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('automations: the rules and their routes', () => {
  let t: TestApp;
  let ws: ContentWorkspace;

  beforeAll(async () => {
    ({ t } = await createContentApp());
  });
  beforeEach(async () => {
    ws = await contentWorkspace(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: object, caller = ws.owner) => call(t, caller, 'post', '/api/automations', body);

  it('creates one with its defaults, and normalises what it stores', async () => {
    const res = await create({
      name: ' Sales ',
      trigger: 'message.inbound',
      conditions: [
        { field: 'content', op: 'contains', value: 'price', extra: 'dropped' },
        { field: 'chat_phone', op: 'starts_with', value: '+49 (151)' },
        { field: 'is_group', op: 'equals', value: false },
        { field: 'message_type', op: 'equals', value: 'text' },
        { field: 'content', op: 'matches', value: '^(hi|hello)\\b' },
      ],
      actions: [
        { type: 'reply', body: ' Our prices ', note: 'dropped' },
        { type: 'mark_read' },
        { type: 'answer_from_knowledge' },
        { type: 'assign', user_id: null },
      ],
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(AUTOMATION_KEYS);
    expect(res.body).toMatchObject({
      name: 'Sales',
      enabled: true,
      trigger: 'message.inbound',
      match: 'all',
      conditions: [
        { field: 'content', op: 'contains', value: 'price' },
        { field: 'chat_phone', op: 'starts_with', value: '49151' },
        { field: 'is_group', op: 'equals', value: false },
        { field: 'message_type', op: 'equals', value: 'text' },
        { field: 'content', op: 'matches', value: '^(hi|hello)\\b' },
      ],
      actions: [{ type: 'reply', body: 'Our prices' }, { type: 'mark_read' }, { type: 'answer_from_knowledge' }, { type: 'assign', user_id: null }],
    });
    const minimal = await create({ name: 'Welcome', trigger: 'conversation.created', match: 'any', enabled: false, actions: REPLY });
    expect(minimal.body).toMatchObject({ trigger: 'conversation.created', match: 'any', enabled: false, conditions: [] });
    expect((await call(t, ws.key, 'get', '/api/automations')).body).toEqual([minimal.body, res.body]);
  });

  it('lets members list, and only owners and admins in the Console write', async () => {
    const { body: created } = await create({ name: 'a', trigger: 'message.inbound', actions: REPLY });
    for (const caller of [ws.readKey, ws.key, ws.agent]) expect((await call(t, caller, 'get', '/api/automations')).status).toBe(200);
    const writes: ['post' | 'patch' | 'delete', string][] = [
      ['post', '/api/automations'],
      ['patch', `/api/automations/${created.id}`],
      ['delete', `/api/automations/${created.id}`],
    ];
    for (const [method, path] of writes) {
      const body = { name: 'b', trigger: 'message.inbound', actions: REPLY };
      for (const key of [ws.key, ws.readKey]) {
        expect((await call(t, key, method, path, body)).body).toEqual({ error: 'API keys cannot administer workspaces' });
      }
      const agent = await call(t, ws.agent, method, path, body);
      expect({ status: agent.status, body: agent.body }).toEqual({ status: 403, body: { error: 'admin required' } });
    }
    expect((await call(t, ws.owner, 'get', '/api/automations')).body).toEqual([created]);
    expect((await create({ name: 'by admin', trigger: 'message.inbound', actions: REPLY }, ws.admin)).status).toBe(201);
  });

  it('refuses every invalid condition and action with a 400 that names it', async () => {
    const { body: template } = await call(t, ws.owner, 'post', '/api/templates', { name: 'two', body: 'Hi {{1}} {{2}}' });
    const outsider = await t.factories.user();
    const base = { name: 'x', trigger: 'message.inbound', actions: REPLY };
    const condition = (c: unknown) => ({ ...base, conditions: [{ field: 'content', op: 'contains', value: 'ok' }, c] });
    const action = (a: unknown) => ({ ...base, actions: [{ type: 'mark_read' }, a] });
    const cases: [object, string][] = [
      [{ ...base, name: '' }, 'name is required (1 to 100 characters)'],
      [{ ...base, trigger: 'message.outbound' }, 'trigger must be message.inbound or conversation.created'],
      [{ ...base, match: 'most' }, 'match must be all or any'],
      [{ ...base, enabled: 'yes' }, 'enabled must be true or false'],
      [{ ...base, conditions: { field: 'content' } }, 'conditions must be an array of {field, op, value}'],
      [{ ...base, conditions: Array.from({ length: 21 }, () => ({ field: 'content', op: 'contains', value: 'a' })) }, 'conditions: at most 20'],
      [condition('content'), 'conditions[1] must be an object {field, op, value}'],
      [
        condition({ field: 'sender_name', op: 'contains', value: 'a' }),
        'conditions[1].field: unknown field "sender_name" (one of content, chat_phone, is_group, message_type, kind)',
      ],
      [condition({ op: 'contains', value: 'a' }), 'conditions[1].field: unknown field undefined (one of content, chat_phone, is_group, message_type, kind)'],
      [condition({ field: 'content', op: 'regex', value: 'a' }), 'conditions[1].op: unknown op "regex" (one of contains, equals, starts_with, matches)'],
      [condition({ field: 'is_group', op: 'contains', value: true }), 'conditions[1].op: is_group supports only equals'],
      [condition({ field: 'is_group', op: 'equals', value: 'true' }), 'conditions[1].value must be true or false for is_group'],
      [condition({ field: 'content', op: 'equals', value: '' }), 'conditions[1].value must be a non-empty string of at most 1000 characters'],
      [condition({ field: 'content', op: 'equals', value: 42 }), 'conditions[1].value must be a non-empty string of at most 1000 characters'],
      [condition({ field: 'content', op: 'matches', value: 'a'.repeat(501) }), 'conditions[1].value must be a non-empty string of at most 500 characters'],
      [condition({ field: 'content', op: 'matches', value: '(unclosed' }), 'conditions[1].value: Invalid regular expression: /(unclosed/i: Unterminated group'],
      [condition({ field: 'message_type', op: 'equals', value: 'video' }), 'conditions[1].value: message_type is one of text, image, document'],
      [
        condition({ field: 'kind', op: 'equals', value: 'gif' }),
        'conditions[1].value: kind is one of text, image, document, video, audio, voice, sticker, location, contacts, poll, unsupported',
      ],
      [condition({ field: 'chat_phone', op: 'equals', value: 'abc' }), 'conditions[1].value must contain the digits of a phone number for chat_phone'],
      [{ ...base, actions: [] }, 'actions must be an array of 1 to 10 actions {type, ...}'],
      [{ name: 'x', trigger: 'message.inbound' }, 'actions must be an array of 1 to 10 actions {type, ...}'],
      [{ ...base, actions: Array.from({ length: 11 }, () => ({ type: 'mark_read' })) }, 'actions must be an array of 1 to 10 actions {type, ...}'],
      [action('reply'), 'actions[1] must be an object {type, ...}'],
      [
        action({ type: 'send_email', to: 'x' }),
        'actions[1].type: unknown action "send_email" (one of reply, reply_template, assign, answer_from_knowledge, mark_read, add_label, set_status)',
      ],
      [action({ type: 'reply', body: '  ' }), 'actions[1].body must be a non-empty string of at most 4096 characters'],
      [action({ type: 'reply_template', template_id: 'nope' }), 'actions[1].template_id must be a template id'],
      [action({ type: 'reply_template', template_id: UNKNOWN_ID }), 'actions[1]: template not found'],
      [
        action({ type: 'reply_template', template_id: template.id, parameters: ['Ada'] }),
        'actions[1]: template parameter {{2}} is missing (the template takes 2)',
      ],
      [
        action({ type: 'reply_template', template_id: template.id, parameters: 'Ada' }),
        'actions[1].parameters must be an array of at most 100 strings of at most 1024 characters',
      ],
      [action({ type: 'assign', user_id: 'me' }), "actions[1].user_id must be a member's user id, or null to unassign"],
      [action({ type: 'assign', user_id: outsider.id }), 'actions[1].user_id: assignee must be a member of this workspace'],
      [action({ type: 'answer_from_knowledge', min_rank: 2 }), 'actions[1].min_rank must be a number from 0 to 1'],
      [action({ type: 'answer_from_knowledge', min_rank: '0.5' }), 'actions[1].min_rank must be a number from 0 to 1'],
    ];
    for (const [body, error] of cases) {
      const res = await create(body);
      expect({ error, status: res.status, got: res.body.error }).toEqual({ error, status: 400, got: error });
    }
    expect((await call(t, ws.owner, 'get', '/api/automations')).body).toEqual([]);
    // The same rules on PATCH; nothing changes.
    const { body: created } = await create(base);
    const patch = await call(t, ws.owner, 'patch', `/api/automations/${created.id}`, { conditions: [{ field: 'x', op: 'equals', value: 'a' }] });
    expect(patch.body).toEqual({ error: 'conditions[0].field: unknown field "x" (one of content, chat_phone, is_group, message_type, kind)' });
    expect((await call(t, ws.owner, 'get', '/api/automations')).body).toEqual([created]);
  });

  it('changes the fields present, replaces lists whole, and deletes once', async () => {
    const { body: created } = await create({
      name: 'a',
      trigger: 'message.inbound',
      conditions: [{ field: 'content', op: 'contains', value: 'x' }],
      actions: REPLY,
    });
    const patched = await call(t, ws.admin, 'patch', `/api/automations/${created.id}`, {
      enabled: false,
      actions: [{ type: 'mark_read' }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ...created, enabled: false, actions: [{ type: 'mark_read' }], updated_at: expect.any(String) });
    const cleared = await call(t, ws.owner, 'patch', `/api/automations/${created.id}`, { conditions: null, name: 'b' });
    expect(cleared.body).toMatchObject({ name: 'b', conditions: [], actions: [{ type: 'mark_read' }] });

    const other = await contentWorkspace(t);
    expect((await call(t, other.owner, 'patch', `/api/automations/${created.id}`, { name: 'x' })).body).toEqual({ error: 'automation not found' });
    expect((await call(t, other.owner, 'delete', `/api/automations/${created.id}`)).status).toBe(404);
    expect((await call(t, ws.owner, 'delete', `/api/automations/${created.id}`)).body).toEqual({ ok: true });
    expect((await call(t, ws.owner, 'delete', `/api/automations/${created.id}`)).body).toEqual({ error: 'automation not found' });
    expect((await call(t, ws.owner, 'patch', '/api/automations/nope', { name: 'x' })).body).toEqual({ error: 'invalid automation id' });
  });

  it('lists the 500 newest, newest first', async () => {
    await t.dataSource.query(
      `INSERT INTO automations (workspace_id, name, trigger, actions, created_at)
       SELECT $1, 'r' || i, 'message.inbound', '[{"type":"mark_read"}]', now() - (501 - i) * interval '1 second' FROM generate_series(1, 501) AS i`,
      [ws.workspaceId],
    );
    const names = ((await call(t, ws.key, 'get', '/api/automations')).body as { name: string }[]).map((a) => a.name);
    expect(names).toHaveLength(500);
    expect(names[0]).toBe('r501');
    expect(names[499]).toBe('r2');
  });
});
