import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { sha256Hex } from '../../src/infra/crypto/hashing.js';
import { InboxFactories, randomPhone } from '../support/inbox-factories.js';
import { dataOf, listenUrl, openSse, type SseClient } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const JSON_TYPE = 'application/json';
const WORKSPACE_KEYS = ['created_at', 'id', 'name', 'role', 'subscription_status'];
const KEY_ITEM_KEYS = ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scope', 'workspace_id'];

describe('one shape and one rule per concept, across routes', () => {
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

  const asSession = (cookie: string, workspaceId?: string) => ({
    get: (path: string) => (workspaceId ? t.http().get(path).set('X-Tenant-ID', workspaceId) : t.http().get(path)).set('Cookie', cookie),
    send: (method: 'post' | 'patch' | 'delete', path: string, body: object = {}) => {
      const request = t.http()[method](path).set('Cookie', cookie).set('Content-Type', JSON_TYPE);
      return (workspaceId ? request.set('X-Tenant-ID', workspaceId) : request).send(body);
    },
  });

  describe('workspaces', () => {
    it("answers one workspace shape, with the caller's role, on create, list, get, rename, login, me and accept", async () => {
      const user = await t.factories.user();
      const cookie = await t.factories.sessionCookie(user.id);
      const created = await asSession(cookie).send('post', '/api/workspaces', { name: 'Acme' });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(WORKSPACE_KEYS);
      expect(created.body).toMatchObject({ name: 'Acme', role: 'owner', subscription_status: 'none' });
      const id = created.body.id as string;
      const session = asSession(cookie, id);

      expect((await session.get('/api/workspace')).body).toEqual(created.body);
      expect((await asSession(cookie).get('/api/workspaces')).body).toEqual([created.body]);
      expect((await asSession(cookie).get('/api/auth/me')).body.workspaces).toEqual([created.body]);
      const renamed = await session.send('patch', '/api/workspace', { name: 'Acme 2' });
      expect(renamed.body).toEqual({ ...created.body, name: 'Acme 2' });
      const login = await t.http().post('/api/auth/login').set('Content-Type', JSON_TYPE).send({ email: user.email, password: user.password });
      expect(login.body.workspaces).toEqual([{ ...created.body, name: 'Acme 2' }]);

      // An agent sees their own role; a key acts as an agent.
      const agent = await t.factories.signedInMember(id, 'agent');
      expect((await asSession(agent.cookie, id).get('/api/workspace')).body).toEqual({ ...created.body, name: 'Acme 2', role: 'agent' });
      const { key } = await t.factories.apiKey(id, 'read');
      expect((await t.http().get('/api/workspace').set('Authorization', `Bearer ${key}`)).body).toEqual({ ...created.body, name: 'Acme 2', role: 'agent' });
    });

    it('answers an accepted invite with the same shape', async () => {
      const { workspace, owner } = await t.factories.workspaceWithOwner();
      const invitee = await t.factories.user();
      const invited = await asSession(owner.cookie, workspace.id).send('post', '/api/invites', { email: invitee.email, role: 'admin' });
      expect(invited.status).toBe(201);
      const token = await inviteToken(invited.body.id as string);
      const accepted = await asSession(await t.factories.sessionCookie(invitee.id)).send('post', '/api/invites/accept', { token });
      expect(accepted.status).toBe(200);
      expect(Object.keys(accepted.body.workspace).sort()).toEqual(WORKSPACE_KEYS);
      expect(accepted.body.workspace).toMatchObject({ id: workspace.id, name: workspace.name, role: 'admin' });
    });
  });

  // The mailed link's token is only in the mail; the test issues a known one instead.
  async function inviteToken(inviteId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await t.dataSource.query(`UPDATE invites SET token_hash = $2 WHERE id = $1`, [inviteId, sha256Hex(token)]);
    return token;
  }

  it('answers a created API key as the list item plus `key`', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const session = asSession(owner.cookie, workspace.id);
    const created = await session.send('post', '/api/keys', { name: 'ci', scope: 'read' });
    expect(created.status).toBe(201);
    const { key, ...item } = created.body as Record<string, unknown>;
    expect(key).toMatch(/^pk_live_[0-9a-f]{48}$/);
    expect(Object.keys(item).sort()).toEqual(KEY_ITEM_KEYS);
    expect(item).toMatchObject({ workspace_id: workspace.id, last_used_at: null, revoked_at: null });
    const listed = (await session.get('/api/keys')).body as Record<string, unknown>[];
    expect(listed.find((k) => k.id === item.id)).toEqual(item);
  });

  describe('a repeated DELETE is 404, like deleting something unknown', () => {
    it('for API keys, contacts, invites and members alike', async () => {
      const { workspace, owner, key } = await t.factories.workspaceWithOwner();
      const session = asSession(owner.cookie, workspace.id);
      const twice = async (path: string, notFound: string, send = (p: string) => session.send('delete', p)) => {
        expect([(await send(path)).status]).toEqual([200]);
        const again = await send(path);
        expect([path, again.status, again.body]).toEqual([path, 404, { error: notFound }]);
      };

      const revocable = await t.factories.apiKey(workspace.id);
      await twice(`/api/keys/${revocable.id}`, 'API key not found');
      const contact = await t.http().post('/api/contacts').set('Authorization', `Bearer ${key}`).set('Content-Type', JSON_TYPE).send({ phone: randomPhone() });
      await twice(`/api/contacts/${contact.body.id}`, 'contact not found', (p) => t.http().delete(p).set('Authorization', `Bearer ${key}`));
      const invite = await session.send('post', '/api/invites', { email: `x-${Date.now()}@example.test`, role: 'agent' });
      await twice(`/api/invites/${invite.body.id}`, 'invite not found');
      const agent = await t.factories.signedInMember(workspace.id, 'agent');
      await twice(`/api/members/${agent.id}`, 'member not found');
    });

    it('a revoked key stays refused after the repeated revoke', async () => {
      const { workspace, owner } = await t.factories.workspaceWithOwner();
      const revocable = await t.factories.apiKey(workspace.id);
      const session = asSession(owner.cookie, workspace.id);
      await session.send('delete', `/api/keys/${revocable.id}`).expect(200);
      await session.send('delete', `/api/keys/${revocable.id}`).expect(404);
      const use = await t.http().get('/api/conversations').set('Authorization', `Bearer ${revocable.key}`);
      expect([use.status, use.body]).toEqual([401, { error: 'invalid or expired API key' }]);
    });
  });

  describe('PATCH: absent leaves a field, null clears what may be empty', () => {
    it('clears a contact name with null as with "", and leaves it when absent', async () => {
      const { key } = await t.factories.workspaceWithOwner();
      const as = (method: 'post' | 'patch', path: string, body: object) =>
        t.http()[method](path).set('Authorization', `Bearer ${key}`).set('Content-Type', JSON_TYPE).send(body);
      const phone = randomPhone();
      const created = await as('post', '/api/contacts', { phone, name: 'Ada' });
      const path = `/api/contacts/${created.body.id}`;

      expect((await as('patch', path, {})).body).toMatchObject({ phone, name: 'Ada' });
      expect((await as('patch', path, { name: null })).body).toMatchObject({ phone, name: '' });
      await as('patch', path, { name: 'Ada' }).expect(200);
      expect((await as('patch', path, { name: '' })).body).toMatchObject({ phone, name: '' });
      // A field that cannot be emptied refuses null like any invalid value.
      const noPhone = await as('patch', path, { phone: null });
      expect([noPhone.status, noPhone.body]).toEqual([400, { error: 'invalid phone number' }]);
    });

    it('refuses null for fields that cannot be empty (conversation status, member role, workspace name)', async () => {
      const { workspace, owner, key } = await t.factories.workspaceWithOwner();
      const conversation = await inbox.conversation(workspace.id);
      const status = await t
        .http()
        .patch(`/api/conversations/${conversation.id}`)
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', JSON_TYPE)
        .send({ status: null });
      expect([status.status, status.body]).toEqual([400, { error: 'status must be open, pending, snoozed or closed' }]);
      const session = asSession(owner.cookie, workspace.id);
      expect((await session.send('patch', '/api/workspace', { name: null })).status).toBe(400);
      const agent = await t.factories.signedInMember(workspace.id, 'agent');
      expect((await session.send('patch', `/api/members/${agent.id}`, { role: null })).status).toBe(400);
    });
  });

  it('announces on the live stream each conversation a deleted contact is unlinked from', async () => {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    const phone = randomPhone();
    const conversation = await inbox.conversation(workspace.id, { phone });
    expect(conversation.contactId).toEqual(expect.any(String));
    const client = await openSse(`${await listenUrl(t.app)}/api/events`, { Authorization: `Bearer ${key}` });
    open.push(client);
    await client.waitFor('the stream to open', (c) => c.comments.length > 0);

    await t.http().delete(`/api/contacts/${conversation.contactId}`).set('Authorization', `Bearer ${key}`).expect(200);
    await client.waitFor('conversation.updated', (c) => c.events.some((e) => e.event === 'conversation.updated'));
    const updated = client.events.filter((e) => e.event === 'conversation.updated').map((e) => dataOf(e));
    expect(updated).toEqual([expect.objectContaining({ id: conversation.id, contact_id: null, chat_phone: phone })]);
    expect((await t.http().get(`/api/conversations/${conversation.id}`).set('Authorization', `Bearer ${key}`)).body.contact_id).toBeNull();
  });
});
