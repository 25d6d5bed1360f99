import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { sha256Hex } from '../../src/infra/crypto/hashing.js';
import { type CapturedMail, linkIn, SmtpCapture } from '../support/smtp-capture.js';
import { createAccountsApp, DAY, MINUTE, type AccountsTestApp } from './accounts-support.js';

describe('invites under concurrency, revocation rights and the 7-day lifetime', () => {
  let smtp: SmtpCapture;
  let t: AccountsTestApp;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    t = await createAccountsApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });
  beforeEach(() => t.resetRateLimits());

  const as = (cookie: string, workspaceId: string) => ({
    invite: (email: string, role = 'agent') => t.http().post('/api/invites').set('Cookie', cookie).set('X-Tenant-ID', workspaceId).send({ email, role }),
    list: () => t.http().get('/api/invites').set('Cookie', cookie).set('X-Tenant-ID', workspaceId),
    revoke: (id: string) => t.http().delete(`/api/invites/${id}`).set('Cookie', cookie).set('X-Tenant-ID', workspaceId).set('Content-Type', 'application/json'),
  });
  const accept = (cookie: string, token: string) => t.http().post('/api/invites/accept').set('Cookie', cookie).send({ token });

  /** The tokens of the first `count` invite mails to `email`, waiting for them to arrive. */
  async function inviteTokens(email: string, count = 1): Promise<string[]> {
    const seen = new Set<CapturedMail>();
    while (seen.size < count) seen.add(await smtp.waitFor(email, (m) => m.subject.startsWith('You are invited') && !seen.has(m)));
    return [...seen].map((m) => linkIn(m, '/accept-invite').searchParams.get('token')!);
  }

  /** A signed-in account for `email`, with a session started at the clock's current time. */
  async function signedIn(email: string): Promise<string> {
    return t.factories.sessionCookie((await t.factories.user({ email })).id);
  }

  it('six invites to one address at once leave one pending invite, and only its link works', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const api = as(owner.cookie, workspace.id);
    const created = await Promise.all(Array.from({ length: 6 }, () => api.invite('Rush@Example.test')));
    expect(created.map((res) => res.status)).toEqual([201, 201, 201, 201, 201, 201]);

    const listed = (await api.list()).body as { id: string; email: string }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]!.email).toBe('rush@example.test');
    expect(created.map((res) => res.body.id)).toContain(listed[0]!.id);

    const tokens = await inviteTokens('rush@example.test', 6);
    const [stored]: { token_hash: string }[] = await t.dataSource.query(`SELECT token_hash FROM invites WHERE id = $1`, [listed[0]!.id]);
    const newest = tokens.filter((token) => sha256Hex(token) === stored!.token_hash);
    expect(newest).toHaveLength(1);

    const cookie = await signedIn('rush@example.test');
    for (const token of tokens.filter((token) => token !== newest[0])) {
      const refused = await accept(cookie, token);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid or expired invite' });
    }
    expect((await accept(cookie, newest[0]!)).body).toEqual({
      workspace: { id: workspace.id, name: workspace.name, role: 'agent', subscription_status: 'none', created_at: expect.any(String) },
    });
  });

  it('an invite accepted from several tabs at once succeeds exactly once', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    await as(owner.cookie, workspace.id).invite('tabs@example.test', 'admin');
    const [token] = await inviteTokens('tabs@example.test');
    const user = await t.factories.user({ email: 'tabs@example.test' });
    const cookies = await Promise.all([1, 2, 3, 4].map(() => t.factories.sessionCookie(user.id)));

    const results = await Promise.all(cookies.map((cookie) => accept(cookie, token!)));
    expect(results.map((res) => res.status).sort()).toEqual([200, 400, 400, 400]);
    expect(results.find((res) => res.status === 200)!.body).toEqual({
      workspace: { id: workspace.id, name: workspace.name, role: 'admin', subscription_status: 'none', created_at: expect.any(String) },
    });
    const members: unknown[] = await t.dataSource.query(`SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [workspace.id, user.id]);
    expect(members).toHaveLength(1);
  });

  it('an agent cannot revoke an invite (403 admin required); an admin can, and its link stops working', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const admin = await t.factories.signedInMember(workspace.id, 'admin');
    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const invite = (await as(owner.cookie, workspace.id).invite('revoked@example.test')).body as { id: string };
    const [token] = await inviteTokens('revoked@example.test');

    const byAgent = await as(agent.cookie, workspace.id).revoke(invite.id);
    expect(byAgent.status).toBe(403);
    expect(byAgent.body).toEqual({ error: 'admin required' });
    expect(((await as(owner.cookie, workspace.id).list()).body as { id: string }[]).map((i) => i.id)).toEqual([invite.id]);

    const byAdmin = await as(admin.cookie, workspace.id).revoke(invite.id);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual({ ok: true });
    expect((await as(owner.cookie, workspace.id).list()).body).toEqual([]);
    expect((await accept(await signedIn('revoked@example.test'), token!)).status).toBe(400);
  });

  it('an invite link works until 7 days minus a minute and is refused at 7 days plus a minute', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    await as(owner.cookie, workspace.id).invite('early@example.test');
    await as(owner.cookie, workspace.id).invite('late@example.test');
    const [early] = await inviteTokens('early@example.test');
    const [late] = await inviteTokens('late@example.test');

    t.clock.advance(7 * DAY - MINUTE);
    expect((await accept(await signedIn('early@example.test'), early!)).body).toEqual({
      workspace: { id: workspace.id, name: workspace.name, role: 'agent', subscription_status: 'none', created_at: expect.any(String) },
    });
    t.clock.advance(2 * MINUTE);
    const refused = await accept(await signedIn('late@example.test'), late!);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid or expired invite' });
  });
});
