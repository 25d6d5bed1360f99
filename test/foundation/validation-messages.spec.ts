import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxFactories } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * A 400 names every problem in one readable sentence (docs/api.md#check-order): one message per field, the first
 * rule it breaks in the order a person fixes them (missing, then type, then length or format),
 * never every limit the field has.
 */
describe('validation messages: one per field, the first rule broken', () => {
  let t: TestApp;
  let ws: string;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    ws = workspace.id;
    cookie = owner.cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  const error = async (method: 'post' | 'patch', path: string, body: unknown): Promise<[number, unknown]> => {
    const res = await t.http()[method](path).set('Cookie', cookie).set('X-Tenant-ID', ws).set('Content-Type', 'application/json').send(JSON.stringify(body));
    return [res.status, res.body];
  };

  it('POST /api/auth/register', async () => {
    expect(await error('post', '/api/auth/register', {})).toEqual([
      400,
      { error: 'password must be a string; name is required; email must be an email address' },
    ]);
    expect(await error('post', '/api/auth/register', { email: 'a@example.com', password: 'short', name: 7 })).toEqual([
      400,
      { error: 'password must be at least 8 characters; name must be a string' },
    ]);
    expect(await error('post', '/api/auth/register', { email: 'a@example.com', password: 'x'.repeat(300), name: '' })).toEqual([
      400,
      { error: 'password must be at most 256 characters; name is required' },
    ]);
  });

  it('PATCH /api/workspace', async () => {
    expect(await error('patch', '/api/workspace', { name: null })).toEqual([400, { error: 'name is required' }]);
    expect(await error('patch', '/api/workspace', {})).toEqual([400, { error: 'name is required' }]);
    expect(await error('patch', '/api/workspace', { name: 5 })).toEqual([400, { error: 'name must be a string' }]);
    expect(await error('patch', '/api/workspace', { name: 'x'.repeat(101) })).toEqual([400, { error: 'name must be at most 100 characters' }]);
  });

  it('POST /api/invites and /api/invites/accept', async () => {
    expect(await error('post', '/api/invites', {})).toEqual([400, { error: 'email must be an email address; role must be one of owner, admin, agent' }]);
    expect(await error('post', '/api/invites', { email: `${'a'.repeat(250)}@example.com`, role: 'agent' })).toEqual([
      400,
      { error: 'email must be an email address' },
    ]);
    expect(await error('post', '/api/invites/accept', {})).toEqual([400, { error: 'token is required' }]);
  });

  it('names the first ten problems and counts the rest: a huge bad array gets a short answer', async () => {
    const conversation = await new InboxFactories(t.app).conversation(ws);
    const res = await t
      .http()
      .post(`/api/conversations/${conversation.id}/messages`)
      .set('Cookie', cookie)
      .set('X-Tenant-ID', ws)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ type: 'image', media: Array.from({ length: 20_000 }, () => 'a') }));
    expect(res.status).toBe(400);
    const problems = (res.body.error as string).split('; ');
    expect(problems).toHaveLength(11);
    expect(problems[0]).toBe('media must be an object');
    expect(problems[10]).toMatch(/^and \d+ more problems$/);
    expect(Number(problems[10]!.split(' ')[1])).toBeGreaterThanOrEqual(20_000 - 9);
    expect((res.body.error as string).length).toBeLessThan(2_000);
  });
});
