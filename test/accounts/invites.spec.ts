import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { linkIn, SmtpCapture } from '../support/smtp-capture.js';
import { createAccountsApp, DAY, sessionCookieOf, type AccountsTestApp } from './accounts-support.js';

// Inviting and revoking need a subscription when subscriptions are enforced (only reading is exempt).
const PAYING = { subscriptionStatus: 'active' } as const;

describe('invites', () => {
  let smtp: SmtpCapture;
  let t: AccountsTestApp;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    t = await createAccountsApp({ env: { SMTP_URL: smtp.url, SUBSCRIPTIONS_ENFORCED: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });
  beforeEach(() => t.resetRateLimits());

  const tokenOf = async (email: string): Promise<string> =>
    linkIn(await smtp.waitFor(email, (m) => m.subject.startsWith('You are invited')), '/accept-invite').searchParams.get('token')!;

  it('a person signs up, verifies, creates a workspace, invites a colleague who accepts; both sign in and out', async () => {
    const signUp = await t.http().post('/api/auth/register').send({ email: 'founder@example.test', password: 'founder password', name: 'Founder' });
    const founder = sessionCookieOf(signUp);
    const verifyToken = linkIn(await smtp.waitFor('founder@example.test'), '/verify-email').searchParams.get('token');
    expect((await t.http().post('/api/auth/verify-email').send({ token: verifyToken })).body).toEqual({ ok: true });

    const workspace = (await t.http().post('/api/workspaces').set('Cookie', founder).send({ name: 'Team' })).body as { id: string };
    // No subscription yet (enforced): inviting is refused until the workspace has one.
    const invitePeople = () =>
      t.http().post('/api/invites').set('Cookie', founder).set('X-Tenant-ID', workspace.id).send({ email: 'Colleague@Example.test', role: 'agent' });
    expect((await invitePeople()).body).toEqual({ error: 'subscription required', code: 'payment_required' });
    await t.dataSource.query(`UPDATE workspaces SET subscription_status = 'active' WHERE id = $1`, [workspace.id]);
    const invite = await invitePeople();
    expect(invite.status).toBe(201);
    expect(invite.body).toEqual({
      id: expect.any(String),
      email: 'colleague@example.test',
      role: 'agent',
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(invite.body.expires_at) - t.clock.now()).toBe(7 * DAY);

    const mail = await smtp.waitFor('colleague@example.test');
    expect(mail.subject).toBe('You are invited to join Team');
    expect(mail.text).toContain('Founder invited you to join the workspace "Team" as agent.');
    const token = linkIn(mail, '/accept-invite').searchParams.get('token')!;

    const colleagueSignUp = await t
      .http()
      .post('/api/auth/register')
      .send({ email: 'colleague@example.test', password: 'colleague password', name: 'Colleague' });
    const colleague = sessionCookieOf(colleagueSignUp);
    const accept = await t.http().post('/api/invites/accept').set('Cookie', colleague).send({ token });
    expect(accept.status).toBe(200);
    expect(accept.body).toEqual({
      workspace: { id: workspace.id, name: 'Team', role: 'agent', subscription_status: expect.any(String), created_at: expect.any(String) },
    });

    const members = await t.http().get('/api/members').set('Cookie', colleague).set('X-Tenant-ID', workspace.id);
    expect(members.body.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['founder@example.test', 'owner'],
      ['colleague@example.test', 'agent'],
    ]);
    expect((await t.http().get('/api/invites').set('Cookie', founder).set('X-Tenant-ID', workspace.id)).body).toEqual([]);

    const used = await t.http().post('/api/invites/accept').set('Cookie', colleague).send({ token });
    expect(used.status).toBe(400);
    expect(used.body).toEqual({ error: 'invalid or expired invite' });

    for (const [cookie, email, password] of [
      [founder, 'founder@example.test', 'founder password'],
      [colleague, 'colleague@example.test', 'colleague password'],
    ] as const) {
      expect((await t.http().post('/api/auth/logout').set('Cookie', cookie).send({})).status).toBe(200);
      const login = await t.http().post('/api/auth/login').send({ email, password });
      expect(login.body.workspaces).toEqual([{ ...workspace, subscription_status: 'active', role: email.startsWith('founder') ? 'owner' : 'agent' }]);
      expect((await t.http().post('/api/auth/logout').set('Cookie', sessionCookieOf(login)).send({})).body).toEqual({ ok: true });
    }
  });

  it('refuses a signed-in user whose email is not the invited one (403), and keeps the invite usable', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner(PAYING);
    await t.http().post('/api/invites').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).send({ email: 'right@example.test', role: 'admin' });
    const token = await tokenOf('right@example.test');

    const wrong = await t.factories.user({ email: 'wrong@example.test' });
    const mismatch = await t
      .http()
      .post('/api/invites/accept')
      .set('Cookie', await t.factories.sessionCookie(wrong.id))
      .send({ token });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body).toEqual({ error: 'this invite was sent to a different email address' });

    const right = await t.factories.user({ email: 'right@example.test' });
    const ok = await t
      .http()
      .post('/api/invites/accept')
      .set('Cookie', await t.factories.sessionCookie(right.id))
      .send({ token });
    expect(ok.body).toEqual({
      workspace: { id: workspace.id, name: workspace.name, role: 'admin', subscription_status: expect.any(String), created_at: expect.any(String) },
    });

    const anonymous = await t.http().post('/api/invites/accept').send({ token });
    expect(anonymous.status).toBe(401);
  });

  it('lists pending invites, revokes one (its link stops working), and refuses expired ones', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner(PAYING);
    const post = (email: string) => t.http().post('/api/invites').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).send({ email, role: 'agent' });
    const first = (await post('one@example.test')).body as { id: string };
    await post('two@example.test');
    const oneToken = await tokenOf('one@example.test');
    const twoToken = await tokenOf('two@example.test');

    const list = await t.http().get('/api/invites').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id);
    expect(list.body.map((i: { email: string }) => i.email).sort()).toEqual(['one@example.test', 'two@example.test']);

    const revoke = await t
      .http()
      .delete(`/api/invites/${first.id}`)
      .set('Cookie', owner.cookie)
      .set('X-Tenant-ID', workspace.id)
      .set('Content-Type', 'application/json');
    expect(revoke.body).toEqual({ ok: true });
    const again = await t
      .http()
      .delete(`/api/invites/${first.id}`)
      .set('Cookie', owner.cookie)
      .set('X-Tenant-ID', workspace.id)
      .set('Content-Type', 'application/json');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'invite not found' });
    const malformed = await t
      .http()
      .delete('/api/invites/xyz')
      .set('Cookie', owner.cookie)
      .set('X-Tenant-ID', workspace.id)
      .set('Content-Type', 'application/json');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: 'invalid invite id' });

    const one = await t.factories.user({ email: 'one@example.test' });
    const revoked = await t
      .http()
      .post('/api/invites/accept')
      .set('Cookie', await t.factories.sessionCookie(one.id))
      .send({ token: oneToken });
    expect(revoked.status).toBe(400);
    expect(revoked.body).toEqual({ error: 'invalid or expired invite' });

    t.clock.advance(7 * DAY + 1000);
    // The owner's session (7 days) expired with the invites: sign in afresh.
    const ownerNow = await t.factories.sessionCookie(owner.id);
    expect((await t.http().get('/api/invites').set('Cookie', ownerNow).set('X-Tenant-ID', workspace.id)).body).toEqual([]);
    const two = await t.factories.user({ email: 'two@example.test' });
    const expired = await t
      .http()
      .post('/api/invites/accept')
      .set('Cookie', await t.factories.sessionCookie(two.id))
      .send({ token: twoToken });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ error: 'invalid or expired invite' });
  });

  it('re-inviting an address replaces the pending invite; an existing member keeps their role', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner(PAYING);
    const invite = (email: string, role: string) =>
      t.http().post('/api/invites').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id).send({ email, role });
    await invite('twice@example.test', 'agent');
    const oldToken = await tokenOf('twice@example.test');
    smtp.mails.splice(0, smtp.mails.length, ...smtp.mails.filter((m) => !m.to.includes('twice@example.test')));
    await invite('twice@example.test', 'admin');
    const newToken = await tokenOf('twice@example.test');
    const list = await t.http().get('/api/invites').set('Cookie', owner.cookie).set('X-Tenant-ID', workspace.id);
    expect(list.body.map((i: { email: string; role: string }) => [i.email, i.role])).toEqual([['twice@example.test', 'admin']]);

    const twice = await t.factories.user({ email: 'twice@example.test' });
    const cookie = await t.factories.sessionCookie(twice.id);
    expect((await t.http().post('/api/invites/accept').set('Cookie', cookie).send({ token: oldToken })).status).toBe(400);
    // Became an agent some other way in the meantime: accepting does not change the role.
    await t.factories.member(workspace.id, twice.id, 'agent');
    const accepted = await t.http().post('/api/invites/accept').set('Cookie', cookie).send({ token: newToken });
    expect(accepted.body).toEqual({
      workspace: { id: workspace.id, name: workspace.name, role: 'agent', subscription_status: expect.any(String), created_at: expect.any(String) },
    });
  });

  it('another workspace cannot see or revoke the invite (404)', async () => {
    const a = await t.factories.workspaceWithOwner(PAYING);
    const b = await t.factories.workspaceWithOwner(PAYING);
    const invite = (
      await t.http().post('/api/invites').set('Cookie', a.owner.cookie).set('X-Tenant-ID', a.workspace.id).send({ email: 'x@example.test', role: 'agent' })
    ).body as { id: string };
    const res = await t
      .http()
      .delete(`/api/invites/${invite.id}`)
      .set('Cookie', b.owner.cookie)
      .set('X-Tenant-ID', b.workspace.id)
      .set('Content-Type', 'application/json');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'invite not found' });
    expect((await t.http().get('/api/invites').set('Cookie', b.owner.cookie).set('X-Tenant-ID', b.workspace.id)).body).toEqual([]);
  });

  it('permissions: agents and keys cannot invite; admins cannot invite owners; members are not re-invited', async () => {
    const { workspace, owner, key } = await t.factories.workspaceWithOwner(PAYING);
    const admin = await t.factories.signedInMember(workspace.id, 'admin');
    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const invite = (cookie: string, body: object) => t.http().post('/api/invites').set('Cookie', cookie).set('X-Tenant-ID', workspace.id).send(body);

    const byAgent = await invite(agent.cookie, { email: 'a@example.test', role: 'agent' });
    expect(byAgent.status).toBe(403);
    expect(byAgent.body).toEqual({ error: 'admin required' });
    expect((await t.http().get('/api/invites').set('Cookie', agent.cookie).set('X-Tenant-ID', workspace.id)).body).toEqual({ error: 'admin required' });

    const byKey = await t.http().post('/api/invites').set('Authorization', `Bearer ${key}`).send({ email: 'a@example.test', role: 'agent' });
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual({ error: 'API keys cannot administer workspaces' });

    const ownerByAdmin = await invite(admin.cookie, { email: 'boss@example.test', role: 'owner' });
    expect(ownerByAdmin.status).toBe(403);
    expect(ownerByAdmin.body).toEqual({ error: 'only an owner can make or change owners' });
    expect((await invite(owner.cookie, { email: 'boss@example.test', role: 'owner' })).status).toBe(201);
    expect((await invite(admin.cookie, { email: 'helper@example.test', role: 'admin' })).status).toBe(201);

    const member = await invite(admin.cookie, { email: agent.email.toUpperCase(), role: 'agent' });
    expect(member.status).toBe(409);
    expect(member.body).toEqual({ error: 'this person is already a member of the workspace' });

    const bad = await invite(owner.cookie, { email: 'nope', role: 'agent' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'email must be an email address' });
  });
});
