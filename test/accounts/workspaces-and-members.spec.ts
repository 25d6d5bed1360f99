import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { SubscriptionStatus } from '../../src/modules/tenants/entities/workspace.entity.js';
import { createAccountsApp, type AccountsTestApp } from './accounts-support.js';

const JSON_TYPE = 'application/json';

describe('workspaces and members', () => {
  let t: AccountsTestApp;
  beforeAll(async () => {
    t = await createAccountsApp({ env: { SUBSCRIPTIONS_ENFORCED: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => t.resetRateLimits());

  describe('workspace selection on session requests', () => {
    it('400 without a workspace, 403 for a foreign one, 400 for a malformed id', async () => {
      const { owner } = await t.factories.workspaceWithOwner();
      const foreign = await t.factories.workspace();

      const none = await t.http().get('/api/workspace').set('Cookie', owner.cookie);
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: 'workspace required (X-Tenant-ID)' });

      const other = await t.http().get('/api/workspace').set('Cookie', owner.cookie).set('X-Tenant-ID', foreign.id);
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ error: 'forbidden' });

      const malformed = await t.http().get('/api/workspace').set('Cookie', owner.cookie).set('X-Tenant-ID', 'not-a-uuid');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid workspace id' });

      const viaQuery = await t.http().get(`/api/members?tenant=${foreign.id}`).set('Cookie', owner.cookie);
      expect(viaQuery.status).toBe(403);
      expect(viaQuery.body).toEqual({ error: 'forbidden' });
    });
  });

  describe('workspaces', () => {
    it('creates one with the creator as owner, lists mine, reads and renames the current one', async () => {
      const user = await t.factories.user();
      const cookie = await t.factories.sessionCookie(user.id);

      const created = await t.http().post('/api/workspaces').set('Cookie', cookie).send({ name: '  Acme support  ' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: 'Acme support',
        subscription_status: 'none',
        created_at: expect.any(String),
        role: 'owner',
      });
      const id: string = created.body.id;

      const list = await t.http().get('/api/workspaces').set('Cookie', cookie);
      expect(list.body).toEqual([created.body]);

      // Subscriptions are enforced and this workspace has none: reading it is exempt.
      const read = await t.http().get('/api/workspace').set('Cookie', cookie).set('X-Tenant-ID', id);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);

      await t.dataSource.query(`UPDATE workspaces SET subscription_status = 'active' WHERE id = $1`, [id]);
      const renamed = await t.http().patch('/api/workspace').set('Cookie', cookie).set('X-Tenant-ID', id).send({ name: 'Acme' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...created.body, name: 'Acme', subscription_status: 'active' });

      const me = await t.http().get('/api/auth/me').set('Cookie', cookie);
      expect(me.body.workspaces).toEqual([renamed.body]);
    });

    it('validates the name and needs a session', async () => {
      const user = await t.factories.user();
      const cookie = await t.factories.sessionCookie(user.id);
      const empty = await t.http().post('/api/workspaces').set('Cookie', cookie).send({ name: '   ' });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ error: 'name is required' });
      const anonymous = await t.http().post('/api/workspaces').send({ name: 'x' });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ error: 'unauthorized' });
    });

    it('an API key reads its workspace but cannot rename it; an agent cannot rename it', async () => {
      const { workspace, key } = await t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
      const read = await t.http().get('/api/workspace').set('Authorization', `Bearer ${key}`);
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(workspace.id);
      const rename = await t.http().patch('/api/workspace').set('Authorization', `Bearer ${key}`).send({ name: 'x' });
      expect(rename.status).toBe(403);
      expect(rename.body).toEqual({ error: 'API keys cannot administer workspaces' });
      const agent = await t.factories.signedInMember(workspace.id, 'agent');
      const byAgent = await t.http().patch('/api/workspace').set('Cookie', agent.cookie).set('X-Tenant-ID', workspace.id).send({ name: 'x' });
      expect(byAgent.status).toBe(403);
      expect(byAgent.body).toEqual({ error: 'admin required' });
    });
  });

  describe('members', () => {
    // Changing members needs a subscription (subscriptions are enforced here); listing them does not.
    async function team(subscriptionStatus: SubscriptionStatus = 'active') {
      const { workspace, owner, key } = await t.factories.workspaceWithOwner({ subscriptionStatus });
      const admin = await t.factories.signedInMember(workspace.id, 'admin');
      const agent = await t.factories.signedInMember(workspace.id, 'agent');
      const as = (cookie: string) => ({
        get: (path: string) => t.http().get(path).set('Cookie', cookie).set('X-Tenant-ID', workspace.id),
        patch: (path: string, body: object) => t.http().patch(path).set('Cookie', cookie).set('X-Tenant-ID', workspace.id).send(body),
        delete: (path: string) => t.http().delete(path).set('Cookie', cookie).set('X-Tenant-ID', workspace.id).set('Content-Type', JSON_TYPE),
      });
      return { workspace, owner, admin, agent, key, as };
    }

    it('any member session lists members (even without a subscription); a key cannot', async () => {
      const { owner, admin, agent, key, as } = await team('none');
      const res = await as(agent.cookie).get('/api/members');
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { user_id: owner.id, email: owner.email, name: owner.name, role: 'owner', joined_at: expect.any(String) },
        { user_id: admin.id, email: admin.email, name: admin.name, role: 'admin', joined_at: expect.any(String) },
        { user_id: agent.id, email: agent.email, name: agent.name, role: 'agent', joined_at: expect.any(String) },
      ]);
      const byKey = await t.http().get('/api/members').set('Authorization', `Bearer ${key}`);
      expect(byKey.status).toBe(403);
      expect(byKey.body).toEqual({ error: 'API keys cannot administer workspaces' });
    });

    it('agents cannot change or remove anyone; admins manage admins and agents but not owners', async () => {
      const { owner, admin, agent, as } = await team();
      for (const res of [
        await as(agent.cookie).patch(`/api/members/${admin.id}`, { role: 'agent' }),
        await as(agent.cookie).delete(`/api/members/${admin.id}`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: 'admin required' });
      }

      const promote = await as(admin.cookie).patch(`/api/members/${agent.id}`, { role: 'admin' });
      expect(promote.status).toBe(200);
      expect(promote.body).toEqual({ user_id: agent.id, email: agent.email, name: agent.name, role: 'admin', joined_at: expect.any(String) });

      for (const res of [
        await as(admin.cookie).patch(`/api/members/${agent.id}`, { role: 'owner' }),
        await as(admin.cookie).patch(`/api/members/${owner.id}`, { role: 'agent' }),
        await as(admin.cookie).delete(`/api/members/${owner.id}`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: 'only an owner can make or change owners' });
      }

      const remove = await as(admin.cookie).delete(`/api/members/${agent.id}`);
      expect(remove.status).toBe(200);
      expect(remove.body).toEqual({ ok: true });
      const gone = await as(agent.cookie).get('/api/members');
      expect(gone.status).toBe(403);
      expect(gone.body).toEqual({ error: 'forbidden' });
    });

    it('protects the last owner (409) and lets an owner hand over ownership', async () => {
      const { owner, admin, as } = await team();
      const demote = await as(owner.cookie).patch(`/api/members/${owner.id}`, { role: 'admin' });
      expect(demote.status).toBe(409);
      expect(demote.body).toEqual({ error: 'the last owner of a workspace cannot be demoted or removed' });
      const leave = await as(owner.cookie).delete(`/api/members/${owner.id}`);
      expect(leave.status).toBe(409);
      expect(leave.body).toEqual({ error: 'the last owner of a workspace cannot be demoted or removed' });

      expect((await as(owner.cookie).patch(`/api/members/${admin.id}`, { role: 'owner' })).body.role).toBe('owner');
      expect((await as(owner.cookie).patch(`/api/members/${owner.id}`, { role: 'admin' })).body.role).toBe('admin');
      const last = await as(admin.cookie).delete(`/api/members/${admin.id}`);
      expect(last.status).toBe(409);
    });

    it('two owners demoting each other at the same moment leave one owner', async () => {
      const { workspace, owner, as } = await team();
      const second = await t.factories.signedInMember(workspace.id, 'owner');
      const results = await Promise.all([
        as(owner.cookie).patch(`/api/members/${second.id}`, { role: 'admin' }),
        as(second.cookie).patch(`/api/members/${owner.id}`, { role: 'admin' }),
      ]);
      // The loser gets 409 (last owner) or, if its role was read after the winner committed, 403.
      const [winner, loser] = results.map((r) => r.status).sort();
      expect(winner).toBe(200);
      expect([403, 409]).toContain(loser);
      const owners: unknown[] = await t.dataSource.query(`SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND role = 'owner'`, [workspace.id]);
      expect(owners).toHaveLength(1);
    });

    it('a member of another workspace cannot be re-roled or removed through this one (404); theirs is unchanged', async () => {
      const { owner, admin, as } = await team();
      const other = await t.factories.workspaceWithOwner();
      const otherAgent = await t.factories.signedInMember(other.workspace.id, 'agent');
      for (const cookie of [owner.cookie, admin.cookie]) {
        for (const target of [otherAgent.id, other.owner.id]) {
          for (const res of [await as(cookie).patch(`/api/members/${target}`, { role: 'admin' }), await as(cookie).delete(`/api/members/${target}`)]) {
            expect(res.status).toBe(404);
            expect(res.body).toEqual({ error: 'member not found' });
          }
        }
      }
      const theirs = await t.http().get('/api/members').set('Cookie', otherAgent.cookie).set('X-Tenant-ID', other.workspace.id);
      expect(theirs.status).toBe(200);
      expect(theirs.body.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toEqual([
        [other.owner.id, 'owner'],
        [otherAgent.id, 'agent'],
      ]);
    });

    it('400 for a malformed user id or role, 404 for a non-member', async () => {
      const { owner, as } = await team();
      const outsider = await t.factories.user();
      const malformed = await as(owner.cookie).patch('/api/members/123', { role: 'agent' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid user id' });
      const badRole = await as(owner.cookie).patch(`/api/members/${owner.id}`, { role: 'king' });
      expect(badRole.status).toBe(400);
      expect(badRole.body).toEqual({ error: 'role must be one of owner, admin, agent' });
      const unknown = await as(owner.cookie).patch(`/api/members/${outsider.id}`, { role: 'agent' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'member not found' });
      const unknownDelete = await as(owner.cookie).delete(`/api/members/${outsider.id}`);
      expect(unknownDelete.status).toBe(404);
      expect(unknownDelete.body).toEqual({ error: 'member not found' });
      expect((await as(owner.cookie).delete('/api/members/nope')).body).toEqual({ error: 'invalid user id' });
    });
  });
});
