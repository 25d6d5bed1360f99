import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OperatorModule } from '../../src/cli/operator.module.js';
import { OperatorService } from '../../src/cli/operator.service.js';
import { EncryptionService } from '../../src/infra/crypto/encryption.service.js';
import { withMigrationContext } from '../../src/infra/database/migration-context.js';
import { WebhookSecrets1764001000001 } from '../../src/infra/database/migrations/1764001000001-WebhookSecrets.js';
import { EVENTS_MESSAGE } from '../../src/modules/webhooks/dto/webhook.dto.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { addWebhook, ownedWorkspace, type Owned } from './webhook-support.js';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

describe('webhook configs and the signing secret', () => {
  let t: TestApp;
  let owned: Owned;
  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true' }, imports: [OperatorModule] });
    owned = await ownedWorkspace(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const sealedSecretOf = async (workspaceId: string): Promise<string | undefined> =>
    ((await t.dataSource.query(`SELECT secret FROM webhook_secrets WHERE workspace_id = $1`, [workspaceId])) as { secret: string }[])[0]?.secret;

  it('creates, lists, reads, changes and deletes a webhook, in the shape of the list', async () => {
    const created = await owned.as('post', '/api/webhooks').send({ url: 'https://hooks.example.com/in?x=1' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://hooks.example.com/in?x=1',
      events: ['scan.chat', 'meta.chat'],
      enabled: true,
      channels: null,
      include_groups: true,
      disabled_reason: null,
      failing_since: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as string;
    expect((await owned.as('get', '/api/webhooks')).body).toEqual([created.body]);
    expect((await owned.as('get', `/api/webhooks/${id}`)).body).toEqual(created.body);

    const changed = await owned.as('patch', `/api/webhooks/${id}`).send({ events: ['meta.chat', 'meta.chat'], enabled: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, url: 'https://hooks.example.com/in?x=1', events: ['meta.chat'], enabled: false });
    const moved = await owned.as('patch', `/api/webhooks/${id}`).send({ url: 'http://127.0.0.1:9/elsewhere' });
    expect(moved.body).toMatchObject({ url: 'http://127.0.0.1:9/elsewhere', events: ['meta.chat'], enabled: false });

    expect((await owned.as('delete', `/api/webhooks/${id}`)).body).toEqual({ ok: true });
    const again = await owned.as('delete', `/api/webhooks/${id}`);
    expect([again.status, again.body]).toEqual([404, { error: 'webhook not found' }]);
    expect((await owned.as('get', '/api/webhooks')).body).toEqual([]);
  });

  it('answers another workspace’s webhook exactly like a missing one, and a malformed id with 400', async () => {
    const other = await ownedWorkspace(t);
    const theirs = await addWebhook(other, 'https://hooks.example.com/theirs');
    for (const [method, path] of [
      ['get', `/api/webhooks/${theirs}`],
      ['patch', `/api/webhooks/${theirs}`],
      ['delete', `/api/webhooks/${theirs}`],
      ['get', `/api/webhooks/${theirs}/deliveries`],
      ['post', `/api/webhooks/${theirs}/test`],
    ] as const) {
      const res = await owned.as(method, path).send(method === 'patch' ? { enabled: false } : undefined);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { error: 'webhook not found' } });
    }
    expect((await other.as('get', `/api/webhooks/${theirs}`)).body).toMatchObject({ enabled: true });
    const bad = await owned.as('get', '/api/webhooks/12345');
    expect([bad.status, bad.body]).toEqual([400, { error: 'invalid webhook id' }]);
  });

  it('refuses invalid input with 400 and the reason, storing nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'url is required: a URL of at most 2048 characters'],
      [{ url: 42 }, 'url is required: a URL of at most 2048 characters'],
      [{ url: '' }, 'url is required: a URL of at most 2048 characters'],
      [{ url: 'not a url' }, 'url must be an http:// or https:// URL'],
      [{ url: 'ftp://files.example.com/x' }, 'url must be an http:// or https:// URL'],
      [{ url: 'https://example.com:99999/' }, 'url is not a valid URL'],
      [{ url: 'HTTP://exa mple.com/' }, 'url is not a valid URL'],
      [{ url: 'https://' }, 'url is not a valid URL'],
      [{ url: `https://example.com/${'a'.repeat(2100)}` }, 'url is required: a URL of at most 2048 characters'],
      [{ url: 'https://example.com/', events: [] }, EVENTS_MESSAGE],
      [{ url: 'https://example.com/', events: ['message.created'] }, EVENTS_MESSAGE],
      [{ url: 'https://example.com/', events: 'scan.chat' }, EVENTS_MESSAGE],
      [{ url: 'https://example.com/', enabled: 'yes' }, 'enabled must be true or false'],
    ];
    for (const [body, error] of cases) {
      const res = await owned.as('post', '/api/webhooks').send(body as object);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error });
    }
    expect((await owned.as('get', '/api/webhooks')).body).toEqual([]);

    const id = await addWebhook(owned, 'https://example.com/kept');
    // Raw JSON, so that a lone surrogate reaches the service as it would from a client.
    const changes: [string, string][] = [
      ['{"url":null}', 'url is required: a URL of at most 2048 characters'],
      ['{"events":null}', EVENTS_MESSAGE],
      ['{"enabled":null}', 'enabled must be true or false'],
      ['{"url":["https://example.com/"]}', 'url is required: a URL of at most 2048 characters'],
      ['{"events":[{"nested":true}]}', EVENTS_MESSAGE],
      ['{"url":"https://example.com/\\ud800"}', 'text must be well-formed Unicode (no lone surrogates)'],
    ];
    for (const [body, error] of changes) {
      const res = await owned.as('patch', `/api/webhooks/${id}`).set('Content-Type', 'application/json').send(body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error });
    }
    expect((await owned.as('get', `/api/webhooks/${id}`)).body).toMatchObject({
      url: 'https://example.com/kept',
      events: ['scan.chat', 'meta.chat'],
      enabled: true,
    });
    await owned.as('delete', `/api/webhooks/${id}`);
  });

  it('allows at most 10 webhooks per workspace: the 11th is 409, also when they are created at once', async () => {
    const crowded = await ownedWorkspace(t);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => crowded.as('post', '/api/webhooks').send({ url: `https://example.com/${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array<number>(10).fill(201), 409, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual({ error: 'a workspace can have at most 10 webhooks' });
    expect((await crowded.as('get', '/api/webhooks')).body).toHaveLength(10);
  });

  it('shows the signing secret as whsec_ + base64 of 32 bytes, stores it encrypted, and rotates it', async () => {
    const res = await owned.as('get', '/api/webhooks/secret');
    expect(res.status).toBe(200);
    const { secret } = res.body as { secret: string };
    expect(secret).toMatch(SECRET);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect((await owned.as('get', '/api/webhooks/secret')).body).toEqual({ secret });
    const sealed = (await sealedSecretOf(owned.workspaceId))!;
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(t.app.get(EncryptionService).decryptString(sealed, 'webhook-secret')).toBe(secret);

    const rotated = await owned.as('post', '/api/webhooks/secret/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(SECRET);
    expect(rotated.body.secret).not.toBe(secret);
    expect((await owned.as('get', '/api/webhooks/secret')).body).toEqual({ secret: rotated.body.secret });
  });

  it('creates the secret with the workspace, from the API and from the operator CLI', async () => {
    const user = await t.factories.user();
    const cookie = await t.factories.sessionCookie(user.id);
    const created = await t.http().post('/api/workspaces').set('Cookie', cookie).send({ name: 'Fresh' });
    expect(created.status).toBe(201);
    expect(await sealedSecretOf(created.body.id as string)).toEqual(expect.any(String));

    const output = await t.app.get(OperatorService).createWorkspace({ name: 'From the CLI', ownerEmail: user.email, subscription: 'active' });
    expect(await sealedSecretOf(output.workspace.id)).toEqual(expect.any(String));
  });

  it('gives workspaces older than webhooks a secret by migration (and on first use when migrated without the key)', async () => {
    const older = [await t.factories.workspace(), await t.factories.workspace()];
    const runner = t.dataSource.createQueryRunner();
    try {
      await withMigrationContext({}, () => new WebhookSecrets1764001000001().up(runner));
      expect(await sealedSecretOf(older[0]!.id)).toBeUndefined();
      await withMigrationContext({ encryptionKey: t.config.encryptionKey }, () => new WebhookSecrets1764001000001().up(runner));
    } finally {
      await runner.release();
    }
    for (const workspace of older) {
      const sealed = (await sealedSecretOf(workspace.id))!;
      expect(t.app.get(EncryptionService).decryptString(sealed, 'webhook-secret')).toMatch(SECRET);
    }
    const late = await t.factories.workspace();
    const owner = await t.factories.signedInMember(late.id, 'owner');
    const res = await t.http().get('/api/webhooks/secret').set('Cookie', owner.cookie).set('X-Tenant-ID', late.id);
    expect(res.body.secret).toMatch(SECRET);
  });

  it('is Console-only: every route refuses API keys (403) and agents (403 admin required)', async () => {
    const id = await addWebhook(owned, 'https://example.com/access');
    const delivery = '00000000-0000-4000-8000-000000000000';
    const routes = [
      ['get', '/api/webhooks'],
      ['post', '/api/webhooks'],
      ['get', '/api/webhooks/stats'],
      ['get', '/api/webhooks/secret'],
      ['post', '/api/webhooks/secret/rotate'],
      ['get', `/api/webhooks/${id}`],
      ['patch', `/api/webhooks/${id}`],
      ['delete', `/api/webhooks/${id}`],
      ['get', `/api/webhooks/${id}/deliveries`],
      ['post', `/api/webhooks/${id}/deliveries/${delivery}/retry`],
      ['post', `/api/webhooks/${id}/test`],
    ] as const;
    const { key: writeKey } = await t.factories.apiKey(owned.workspaceId, 'write');
    const { key: readKey } = await t.factories.apiKey(owned.workspaceId, 'read');
    const agent = await t.factories.signedInMember(owned.workspaceId, 'agent');
    for (const [method, path] of routes) {
      for (const key of [writeKey, readKey]) {
        const res = await t.http()[method](path).set('Authorization', `Bearer ${key}`).send({ url: 'https://example.com/k' });
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: { error: 'API keys cannot administer workspaces' } });
      }
      const res = await t.http()[method](path).set('Cookie', agent.cookie).set('X-Tenant-ID', owned.workspaceId).send({ url: 'https://example.com/a' });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: { error: 'admin required' } });
      expect((await t.http()[method](path)).status).toBe(401);
    }
    // An admin may.
    const admin = await t.factories.signedInMember(owned.workspaceId, 'admin');
    expect((await t.http().get('/api/webhooks').set('Cookie', admin.cookie).set('X-Tenant-ID', owned.workspaceId)).status).toBe(200);
    expect((await owned.as('get', `/api/webhooks/${id}`)).status).toBe(200);
  });
});
