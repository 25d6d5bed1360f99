import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { call } from '../inbox/inbox-http.js';
import type { TestApp } from '../support/test-app.js';
import { type ContentWorkspace, contentWorkspace, createContentApp } from './content-support.js';

/**
 * PATCH of templates, automations and knowledge articles follows the API's convention
 * (docs/api.md, "Conventions"): an absent field stays, `null` clears a field that may be empty
 * and is 400 (in the error shape, nothing changed) for a field that may not.
 */
describe('PATCH null in the content module', () => {
  let t: TestApp;
  let ws: ContentWorkspace;
  beforeAll(async () => {
    ({ t } = await createContentApp());
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    ws = await contentWorkspace(t);
  });

  const patch = (path: string, body: object) => call(t, ws.owner, 'patch', path, body);

  it('templates: null for name, body, language or category is 400 and changes nothing', async () => {
    const created = await call(t, ws.owner, 'post', '/api/templates', { name: 'welcome', body: 'Hi {{1}}', language: 'en_US', category: 'marketing' });
    expect(created.status).toBe(201);
    const path = `/api/templates/${created.body.id as string}`;
    const cases: [object, string][] = [
      [{ name: null }, 'name is required (1 to 512 characters)'],
      [{ body: null }, 'body is required (1 to 1024 characters)'],
      [{ language: null }, 'language must be a language code such as en, en_US or pt_BR'],
      [{ category: null }, 'category must be MARKETING, UTILITY or AUTHENTICATION'],
    ];
    for (const [body, error] of cases) {
      const res = await patch(path, { ...body });
      expect([body, res.status, res.body]).toEqual([body, 400, { error }]);
    }
    const after = await call(t, ws.owner, 'get', '/api/templates');
    expect(after.body).toEqual([created.body]);
    // Absent fields stay.
    const renamed = await patch(path, { name: 'welcome_2' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created.body, name: 'welcome_2' });
  });

  it('knowledge: null for title or body is 400 and changes nothing', async () => {
    const created = await call(t, ws.owner, 'post', '/api/knowledge', { title: 'Refunds', body: 'Within 30 days.' });
    expect(created.status).toBe(201);
    const path = `/api/knowledge/${created.body.id as string}`;
    for (const [body, error] of [
      [{ title: null }, 'title is required (1 to 200 characters)'],
      [{ body: null }, 'body is required (1 to 20000 characters)'],
    ] as [object, string][]) {
      const res = await patch(path, body);
      expect([body, res.status, res.body]).toEqual([body, 400, { error }]);
    }
    const after = await call(t, ws.owner, 'get', '/api/knowledge');
    expect(after.body).toEqual([created.body]);
  });

  it('automations: null for name, enabled, trigger, match or actions is 400; null conditions clears them', async () => {
    const created = await call(t, ws.owner, 'post', '/api/automations', {
      name: 'a',
      trigger: 'message.inbound',
      conditions: [{ field: 'content', op: 'contains', value: 'refund' }],
      actions: [{ type: 'mark_read' }],
    });
    expect(created.status).toBe(201);
    const path = `/api/automations/${created.body.id as string}`;
    for (const [body, error] of [
      [{ name: null }, 'name is required (1 to 100 characters)'],
      [{ enabled: null }, 'enabled must be true or false'],
      [{ trigger: null }, 'trigger must be message.inbound or conversation.created'],
      [{ match: null }, 'match must be all or any'],
      [{ actions: null }, 'actions must be an array of 1 to 10 actions {type, ...}'],
    ] as [object, string][]) {
      const res = await patch(path, body);
      expect([body, res.status, res.body]).toEqual([body, 400, { error }]);
    }
    const unchanged = await call(t, ws.owner, 'get', '/api/automations');
    expect(unchanged.body).toEqual([created.body]);
    const cleared = await patch(path, { conditions: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ name: 'a', conditions: [], actions: [{ type: 'mark_read' }] });
  });
});
