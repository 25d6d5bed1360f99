import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { sha256Hex } from '../../src/infra/crypto/hashing.js';
import { ApiKeyRepository } from '../../src/modules/auth/api-keys/api-key.repository.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type AccessFixtures, buildFixtures, type Caller, callers, DAY_MS, send } from './support/access-fixtures.js';
import { AccessProbeController } from './support/access-probe.controller.js';

const bearer = (key: string): Caller => ({ headers: { Authorization: `Bearer ${key}` } });

describe('API keys (/api/keys)', () => {
  let t: TestApp;
  let x: AccessFixtures;
  let as: ReturnType<typeof callers>;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [AccessProbeController] });
    x = await buildFixtures(t);
    as = callers(x);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: Record<string, unknown>, caller: Caller = as.owner) => send(t, 'POST', '/api/keys', { ...caller, body });

  it.each([
    ['read', 'read'],
    ['write', 'write'],
    ['full', 'write'],
    ['full_access', 'write'],
  ])('creates a %s key, stored as %s, and shows the key once', async (requested, stored) => {
    const res = await create({ name: `  ${requested} key `, scope: requested, extra: 'ignored' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      'created_at',
      'expires_at',
      'id',
      'key',
      'last_used_at',
      'name',
      'prefix',
      'revoked_at',
      'scope',
      'workspace_id',
    ]);
    const { key, prefix, scope, name, created_at: createdAt, expires_at: expiresAt } = res.body;
    expect(key).toMatch(/^pk_live_[0-9a-f]{48}$/);
    expect(key).toHaveLength(56);
    expect(prefix).toBe(key.slice(0, 16));
    expect(scope).toBe(stored);
    expect(name).toBe(`${requested} key`);
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(365 * DAY_MS);

    const used = await send(t, requested === 'read' ? 'GET' : 'POST', '/test-access/member', bearer(key));
    expect(used.status).toBe(requested === 'read' ? 200 : 201);
    const rows: { key_hash: string; scope: string; created_by: string }[] = await t.dataSource.query(
      `SELECT key_hash, scope, created_by FROM api_keys WHERE id = $1`,
      [res.body.id],
    );
    expect(rows).toEqual([{ key_hash: sha256Hex(key), scope: stored, created_by: x.owner.id }]);
  });

  it.each([
    [{ name: 'x', scope: 'admin' }, 'scope must be one of read, write, full, full_access'],
    [{ name: 'x', scope: 'READ' }, 'scope must be one of read, write, full, full_access'],
    [{ name: 'x', scope: ['write'] }, 'scope must be one of read, write, full, full_access'],
    [{ name: 'x', scope: null }, 'scope must be one of read, write, full, full_access'],
    [{ name: 'x', scope: '' }, 'scope must be one of read, write, full, full_access'],
    [{ scope: 'read' }, 'name is required (1 to 100 characters)'],
    [{ name: '   ', scope: 'read' }, 'name is required (1 to 100 characters)'],
    [{ name: 'n'.repeat(101), scope: 'read' }, 'name is required (1 to 100 characters)'],
  ])('refuses %j with 400', async (body, text) => {
    const res = await create(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: text } });
  });

  it('creates a read key when the scope is left out, as the CLI does: it may read, not write', async () => {
    const res = await create({ name: 'no scope given' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'no scope given', scope: 'read' });
    const rows: { scope: string }[] = await t.dataSource.query(`SELECT scope FROM api_keys WHERE id = $1`, [res.body.id]);
    expect(rows).toEqual([{ scope: 'read' }]);
    expect((await send(t, 'GET', '/test-access/member', bearer(res.body.key))).status).toBe(200);
    const write = await send(t, 'POST', '/test-access/member', bearer(res.body.key));
    expect([write.status, write.body]).toEqual([403, { error: 'API key is read-only' }]);
  });

  it('lists keys without the key or its hash', async () => {
    const created = await create({ name: 'listed', scope: 'read' });
    await send(t, 'GET', '/test-access/member', bearer(created.body.key));
    const res = await send(t, 'GET', '/api/keys', as.admin);
    expect(res.status).toBe(200);
    const listed = (res.body as Record<string, unknown>[]).find((k) => k.id === created.body.id);
    expect(listed).toEqual({
      id: created.body.id,
      workspace_id: x.a.id,
      name: 'listed',
      scope: 'read',
      prefix: created.body.prefix,
      created_at: created.body.created_at,
      expires_at: created.body.expires_at,
      last_used_at: expect.any(String),
      revoked_at: null,
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(created.body.key);
    expect(text).not.toContain(sha256Hex(created.body.key));
    expect(text).not.toContain(x.writeKey);
    // Only this workspace's keys.
    expect((res.body as { id: string }[]).length).toBe(
      Number((await t.dataSource.query(`SELECT count(*) AS n FROM api_keys WHERE workspace_id = $1`, [x.a.id]))[0].n),
    );
  });

  it('revokes immediately: the very next request with the key gets 401', async () => {
    const { body } = await create({ name: 'to revoke', scope: 'write' });
    expect((await send(t, 'GET', '/test-access/member', bearer(body.key))).status).toBe(200);
    const revoked = await send(t, 'DELETE', `/api/keys/${body.id}`, as.owner);
    expect({ status: revoked.status, body: revoked.body }).toEqual({ status: 200, body: { ok: true } });
    const next = await send(t, 'GET', '/test-access/member', bearer(body.key));
    expect({ status: next.status, body: next.body }).toEqual({ status: 401, body: { error: 'invalid or expired API key' } });
    // Revoked already: 404, like every repeated DELETE (docs/api.md, "Conventions").
    const again = await send(t, 'DELETE', `/api/keys/${body.id}`, as.owner);
    expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: { error: 'API key not found' } });
    const listed = (await send(t, 'GET', '/api/keys', as.owner)).body as { id: string; revoked_at: string | null }[];
    expect(listed.find((k) => k.id === body.id)?.revoked_at).toEqual(expect.any(String));
  });

  it("cannot see or revoke another workspace's key (404, and the key keeps working)", async () => {
    const other = await t.factories.apiKey(x.b.id, 'read');
    const res = await send(t, 'DELETE', `/api/keys/${other.id}`, as.owner);
    expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { error: 'API key not found' } });
    expect((await send(t, 'GET', '/test-access/member', bearer(other.key))).status).toBe(200);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    const malformed = await send(t, 'DELETE', '/api/keys/123', as.owner);
    expect({ status: malformed.status, body: malformed.body }).toEqual({ status: 400, body: { error: 'invalid API key id' } });
    const unknown = await send(t, 'DELETE', '/api/keys/6f1c1c1e-1111-4111-8111-111111111111', as.owner);
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: { error: 'API key not found' } });
  });

  it('expires 365 days after creation', async () => {
    const justExpired = await t.factories.apiKey(x.a.id, 'read', new Date(Date.now() - 365 * DAY_MS - 1000));
    const almost = await t.factories.apiKey(x.a.id, 'read', new Date(Date.now() - 365 * DAY_MS + 60_000));
    expect((await send(t, 'GET', '/test-access/member', bearer(justExpired.key))).body).toEqual({ error: 'invalid or expired API key' });
    expect((await send(t, 'GET', '/test-access/member', bearer(almost.key))).status).toBe(200);
  });

  it('records last use without a write per request', async () => {
    const { id, key } = await t.factories.apiKey(x.a.id, 'read');
    const markUsed = jest.spyOn(t.app.get(ApiKeyRepository), 'markUsed');
    try {
      for (let i = 0; i < 10; i++) expect((await send(t, 'GET', '/test-access/member', bearer(key))).status).toBe(200);
      expect(markUsed.mock.calls.filter(([, keyId]) => keyId === id)).toHaveLength(1);
    } finally {
      markUsed.mockRestore();
    }
    // The write is fire-and-forget: wait for it to land.
    let lastUsed: Date | null = null;
    for (let i = 0; i < 50 && !lastUsed; i++) {
      lastUsed = (await t.dataSource.query(`SELECT last_used_at FROM api_keys WHERE id = $1`, [id]))[0].last_used_at;
      if (!lastUsed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lastUsed).toBeInstanceOf(Date);
  });
});
