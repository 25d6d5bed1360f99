import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const NOT_JSON = { error: 'request body must be JSON (Content-Type: application/json)' };

describe('request bodies that are not JSON', () => {
  let t: TestApp;
  let key: string;
  let inbox: InboxFactories;
  let workspaceId: string;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    const setup = await t.factories.workspaceWithOwner();
    key = setup.key;
    workspaceId = setup.workspace.id;
    cookie = setup.owner.cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses curl's default form type with a 400 that names the problem, not the data", async () => {
    // What `curl -d '{"phone":"…"}'` sends: the JSON text under a form content type.
    const body = JSON.stringify({ phone: randomPhone(), name: 'Ada' });
    const res = await t.http().post('/api/contacts').set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/x-www-form-urlencoded').send(body);
    expect([res.status, res.body]).toEqual([400, NOT_JSON]);
    expect(await inbox.count('contacts WHERE workspace_id = $1', [workspaceId])).toBe(0);
  });

  it('refuses a message sent the same way instead of calling its body missing', async () => {
    const conversation = await inbox.conversation(workspaceId);
    const res = await t
      .http()
      .post(`/api/conversations/${conversation.id}/messages`)
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('{"body":"hello"}');
    expect([res.status, res.body]).toEqual([400, NOT_JSON]);
  });

  it.each([
    ['text/plain', '{"name":"x"}'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
    ['application/vnd.api+json', '{"name":"x"}'],
    ['application/jsonx', '{"name":"x"}'],
  ])('refuses %s on any route, after authentication and before validation', async (type, body) => {
    const res = await t.http().patch('/api/workspace').set('Cookie', cookie).set('X-Tenant-ID', workspaceId).set('Content-Type', type).send(body);
    expect([res.status, res.body]).toEqual([400, NOT_JSON]);
    // Without credentials the guard chain answers first (docs/api.md#check-order: input validation comes last).
    const anonymous = await t.http().patch('/api/workspace').set('Content-Type', type).send(body);
    expect([anonymous.status, anonymous.body]).toEqual([401, { error: 'unauthorized' }]);
  });

  it('refuses a body without any Content-Type', async () => {
    const res = await t.http().post('/api/contacts').set('Authorization', `Bearer ${key}`).unset('Content-Type').send(Buffer.from('{"phone":"491511"}'));
    expect([res.status, res.body]).toEqual([400, NOT_JSON]);
  });

  it('accepts JSON with parameters, in any letter case', async () => {
    const res = await t
      .http()
      .post('/api/contacts')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'Application/JSON; charset=utf-8')
      .send(JSON.stringify({ phone: randomPhone(), name: 'Ada' }));
    expect(res.status).toBe(201);
  });

  it('never refuses a request without a body for its Content-Type', async () => {
    const conversation = await inbox.conversation(workspaceId);
    const read = await t.http().post(`/api/conversations/${conversation.id}/read`).set('Authorization', `Bearer ${key}`).set('Content-Type', 'text/plain');
    expect([read.status, read.body]).toEqual([200, { ok: true }]);
    const empty = await t
      .http()
      .get('/api/workspace')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .set('Content-Length', '0');
    expect(empty.status).toBe(200);
  });

  it('refuses a form body on a Console request too (cookie and workspace header)', async () => {
    const res = await t
      .http()
      .patch('/api/workspace')
      .set('Cookie', cookie)
      .set('X-Tenant-ID', workspaceId)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('name=Renamed');
    expect([res.status, res.body]).toEqual([400, NOT_JSON]);
  });
});
