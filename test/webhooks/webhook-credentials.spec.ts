import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EncryptionService } from '../../src/infra/crypto/encryption.service.js';
import { withMigrationContext } from '../../src/infra/database/migration-context.js';
import { WebhookSealedUrls1764011100000 } from '../../src/infra/database/migrations/1764011100000-WebhookSealedUrls.js';
import type { InboundTestApp } from '../chat/inbound-support.js';
import { scanMessage } from '../chat/inbound-support.js';
import { createWebhookTestApp, eventually, logOf, ownedWorkspace, type Owned, Receiver } from './webhook-support.js';

const MASKED = 'url has *** in place of a credential: give the real one (*** keeps the stored one only in the URL exactly as stored, nothing else changed)';
// A password with characters a URL must percent-encode: deliveries send it decoded.
const PASSWORD = 'p@ss:w/rd';
const ENCODED = encodeURIComponent(PASSWORD);
const pathOf = (target: string): string => target.split('?')[0]!;
const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * Webhook URLs with credentials (`https://user:pass@host/…`): the password never comes back out
 * of the API, is sealed at rest, and still reaches the endpoint as HTTP Basic auth. The receiver
 * answers 401 unless a path's expected Authorization arrives, so a delivery the log shows
 * `delivered` authenticated.
 */
describe('webhook URLs with credentials', () => {
  let s: InboundTestApp;
  let receiver: Receiver;
  /** The Authorization each path accepts (none: any request is welcome). */
  const expected = new Map<string, string | undefined>();

  beforeAll(async () => {
    [s, receiver] = await Promise.all([createWebhookTestApp(), Receiver.start()]);
    receiver.reply = (request) => {
      const path = pathOf(request.path);
      if (!expected.has(path)) return { status: 404 };
      const want = expected.get(path);
      return want === undefined || request.headers.authorization === want ? { status: 200 } : { status: 401 };
    };
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  const origin = (): string => `127.0.0.1:${receiver.port}`;
  /** The requests to `path`, whatever their query. */
  const at = (path: string) => receiver.received.filter((r) => pathOf(r.path) === path);
  const stored = async (webhookId: string): Promise<{ url: string; sealed_url: string | null; row: string }> =>
    (await s.t.dataSource.query(`SELECT url, sealed_url, row_to_json(w)::text AS row FROM webhooks w WHERE id = $1`, [webhookId]))[0];
  const unseal = (sealed: string): string => s.t.app.get(EncryptionService).decryptString(sealed, 'webhook-url');

  /** A test event through the API; answers the attempt the log records. */
  const probe = async (owned: Owned, webhookId: string): Promise<Record<string, unknown>> => {
    const res = await owned.as('post', `/api/webhooks/${webhookId}/test`);
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>;
  };

  async function withCredentials(): Promise<{ owned: Owned; id: string; path: string; real: string; masked: string }> {
    const owned = await ownedWorkspace(s.t);
    const path = `/auth-${owned.workspaceId}`;
    expected.set(path, basic('hook-user', PASSWORD));
    const real = `http://hook-user:${ENCODED}@${origin()}${path}?x=1`;
    const masked = `http://hook-user:***@${origin()}${path}?x=1`;
    const created = await owned.as('post', '/api/webhooks').send({ url: real });
    expect([created.status, created.body.url]).toEqual([201, masked]);
    return { owned, id: created.body.id as string, path, real, masked };
  }

  it('answers the URL masked on create, list, read and change, and stores it sealed', async () => {
    const { owned, id, real, masked } = await withCredentials();
    expect((await owned.as('get', '/api/webhooks')).body).toEqual([expect.objectContaining({ id, url: masked })]);
    expect((await owned.as('get', `/api/webhooks/${id}`)).body).toMatchObject({ url: masked });
    const changed = await owned.as('patch', `/api/webhooks/${id}`).send({ events: ['scan.chat'] });
    expect(changed.body).toMatchObject({ url: masked, events: ['scan.chat'] });

    const row = await stored(id);
    expect(row.url).toBe(masked);
    expect(row.row).not.toContain(ENCODED);
    expect(row.row).not.toContain(PASSWORD);
    expect(unseal(row.sealed_url!)).toBe(real);
    // Nothing the API answers about the webhook carries the password, the delivery log included.
    await probe(owned, id);
    for (const path of ['/api/webhooks', `/api/webhooks/${id}`, `/api/webhooks/${id}/deliveries`]) {
      const text = JSON.stringify((await owned.as('get', path)).body);
      expect({ path, leaks: text.includes(ENCODED) || text.includes(PASSWORD) }).toEqual({ path, leaks: false });
    }
  });

  it('delivers with the URL’s credentials as Basic auth: a test event, a scheduled delivery, a retry from the log', async () => {
    const { owned, id, path } = await withCredentials();
    expect(await probe(owned, id)).toMatchObject({ event: 'webhook.test', status: 'delivered', response_status: 200 });

    await s.handler.handle(owned.workspaceId, { type: 'messages', kind: 'notify', messages: [scanMessage()] });
    const log = await eventually('the scheduled delivery delivered', async () => {
      const attempts = await logOf(owned, id);
      return attempts.some((a) => a.event === 'scan.chat' && a.status === 'delivered') ? attempts : null;
    });
    const delivery = log.find((a) => a.event === 'scan.chat')!;
    const retried = await owned.as('post', `/api/webhooks/${id}/deliveries/${String(delivery.delivery_id)}/retry`);
    expect(retried.body).toMatchObject({ status: 'delivered', response_status: 200 });
    expect(at(path).map((r) => r.headers.authorization)).toEqual(Array(3).fill(basic('hook-user', PASSWORD)));
  });

  it('keeps the stored password when a PATCH sends the masked URL back unchanged; a new path or query needs the real one; a new password replaces it', async () => {
    const { owned, id, path, real, masked } = await withCredentials();
    const same = await owned.as('patch', `/api/webhooks/${id}`).send({ url: masked, enabled: true });
    expect([same.status, same.body.url]).toEqual([200, masked]);
    expect(unseal((await stored(id)).sealed_url!)).toBe(real);
    expect(await probe(owned, id)).toMatchObject({ status: 'delivered', response_status: 200 });

    // On a shared ingest host the path is whose endpoint it is: *** may not follow it there.
    const moved = `${path}/moved`;
    expected.set(moved, undefined);
    const before = await stored(id);
    for (const url of [
      `http://hook-user:***@${origin()}${moved}?x=1`,
      `http://hook-user:***@${origin()}${path}?x=2`,
      `http://hook-user:***@${origin()}${path}`,
    ]) {
      const res = await owned.as('patch', `/api/webhooks/${id}`).send({ url });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 400, body: { error: MASKED } });
    }
    expect(await stored(id)).toEqual(before);
    expect(await probe(owned, id)).toMatchObject({ status: 'delivered', response_status: 200 });
    expect(at(moved)).toEqual([]);

    expected.set(moved, basic('hook-user', 'new secret'));
    const renewed = await owned.as('patch', `/api/webhooks/${id}`).send({ url: `http://hook-user:new%20secret@${origin()}${moved}` });
    expect([renewed.status, renewed.body.url]).toEqual([200, `http://hook-user:***@${origin()}${moved}`]);
    expect(await probe(owned, id)).toMatchObject({ status: 'delivered', response_status: 200 });
    expect(at(moved).map((r) => r.headers.authorization)).toEqual([basic('hook-user', 'new secret')]);
  });

  it('resolves *** to the password stored when it runs: a masked PATCH waiting on a change of the password keeps the new one', async () => {
    const { owned, id, path, masked } = await withCredentials();
    const renewed = `http://hook-user:renewed@${origin()}${path}?x=1`;
    // Another change of the password, caught mid-transaction: it holds the row until it commits.
    const other = s.t.dataSource.createQueryRunner();
    await other.connect();
    try {
      await other.startTransaction();
      await other.query(`UPDATE webhooks SET sealed_url = $2 WHERE id = $1`, [id, s.t.app.get(EncryptionService).encrypt(renewed, 'webhook-url')]);
      const patch = owned
        .as('patch', `/api/webhooks/${id}`)
        .send({ url: masked })
        .then((res) => res);
      await eventually('the masked PATCH waits for the row', async () => {
        const [{ n }]: { n: number }[] = await s.t.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return n > 0;
      });
      await other.commitTransaction();
      const res = await patch;
      expect([res.status, res.body.url]).toEqual([200, masked]);
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
    }
    expect(unseal((await stored(id)).sealed_url!)).toBe(renewed);
    expected.set(path, basic('hook-user', 'renewed'));
    expect(await probe(owned, id)).toMatchObject({ status: 'delivered', response_status: 200 });
  });

  it('refuses *** where it cannot stand for the stored credential: another user, host, port or scheme, a create, a URL that had none', async () => {
    const { owned, id, path } = await withCredentials();
    const before = await stored(id);
    for (const url of [
      `http://other-user:***@${origin()}${path}?x=1`,
      `http://hook-user:***@localhost:${receiver.port}${path}?x=1`,
      `http://hook-user:***@127.0.0.1:${receiver.port + 1}${path}?x=1`,
      `https://hook-user:***@${origin()}${path}?x=1`,
      `http://***@${origin()}${path}?x=1`,
    ]) {
      const res = await owned.as('patch', `/api/webhooks/${id}`).send({ url });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 400, body: { error: MASKED } });
    }
    expect(await stored(id)).toEqual(before);
    expect(await probe(owned, id)).toMatchObject({ status: 'delivered' });

    const create = await owned.as('post', '/api/webhooks').send({ url: `http://hook-user:***@${origin()}${path}` });
    expect([create.status, create.body]).toEqual([400, { error: MASKED }]);
    const plain = await owned.as('post', '/api/webhooks').send({ url: `http://${origin()}${path}/plain` });
    const masked = await owned.as('patch', `/api/webhooks/${plain.body.id as string}`).send({ url: `http://hook-user:***@${origin()}${path}/plain` });
    expect([masked.status, masked.body]).toEqual([400, { error: MASKED }]);
  });

  it('drops the credentials with a URL that has none: nothing sealed, deliveries without Authorization', async () => {
    const { owned, id, path } = await withCredentials();
    const res = await owned.as('patch', `/api/webhooks/${id}`).send({ url: `http://${origin()}${path}` });
    expect(res.body.url).toBe(`http://${origin()}${path}`);
    expect(await stored(id)).toMatchObject({ url: `http://${origin()}${path}`, sealed_url: null });
    expect(await probe(owned, id)).toMatchObject({ status: 'failed', response_status: 401 });
    expect(at(path).at(-1)!.headers.authorization).toBeUndefined();
  });

  it('masks a user name without a password (a token) as *** and keeps it through a masked PATCH; %2A%2A%2A is a literal ***', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/token-${owned.workspaceId}`;
    expected.set(path, basic('tok_9f8e7d', ''));
    const created = await owned.as('post', '/api/webhooks').send({ url: `http://tok_9f8e7d@${origin()}${path}` });
    expect(created.body.url).toBe(`http://***@${origin()}${path}`);
    expect((await stored(created.body.id as string)).row).not.toContain('tok_9f8e7d');
    const kept = await owned.as('patch', `/api/webhooks/${created.body.id as string}`).send({ url: `http://***@${origin()}${path}` });
    expect([kept.status, kept.body.url]).toEqual([200, `http://***@${origin()}${path}`]);
    expect(await probe(owned, created.body.id as string)).toMatchObject({ status: 'delivered', response_status: 200 });

    const literal = `/literal-${owned.workspaceId}`;
    expected.set(literal, basic('user', '***'));
    const starred = await owned.as('post', '/api/webhooks').send({ url: `http://user:%2A%2A%2A@${origin()}${literal}` });
    expect([starred.status, starred.body.url]).toEqual([201, `http://user:***@${origin()}${literal}`]);
    expect(await probe(owned, starred.body.id as string)).toMatchObject({ status: 'delivered', response_status: 200 });
  });

  it('seals the credentials of URLs stored before, by migration (which needs the key for it), and writes them back on revert', async () => {
    const { owned, id, real, masked } = await withCredentials();
    const plain = await owned.as('post', '/api/webhooks').send({ url: `http://${origin()}/no-credentials` });
    const key = { encryptionKey: s.t.config.encryptionKey };
    const migration = new WebhookSealedUrls1764011100000();
    const runner = s.t.dataSource.createQueryRunner();
    try {
      await withMigrationContext(key, () => migration.down(runner));
      expect(await s.t.dataSource.query(`SELECT url FROM webhooks WHERE id = $1`, [id])).toEqual([{ url: real }]);
      // As the migrator runs it: in a transaction, which the refusal rolls back.
      await runner.startTransaction();
      await expect(withMigrationContext({}, () => migration.up(runner))).rejects.toThrow(
        /^sealing the credentials of \d+ webhook URL\(s\) needs ENCRYPTION_KEY: run the service's migrator \(start-up or `npm run migration:run`\)$/,
      );
      await runner.rollbackTransaction();
      await withMigrationContext(key, () => migration.up(runner));
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    const row = await stored(id);
    expect(row.url).toBe(masked);
    expect(unseal(row.sealed_url!)).toBe(real);
    expect(await stored(plain.body.id as string)).toMatchObject({ url: `http://${origin()}/no-credentials`, sealed_url: null });
    expect((await owned.as('get', `/api/webhooks/${id}`)).body.url).toBe(masked);
    expect(await probe(owned, id)).toMatchObject({ status: 'delivered', response_status: 200 });
  });

  it('masks a URL written straight to the database, and delivers to it as it is', async () => {
    const owned = await ownedWorkspace(s.t);
    const path = `/raw-${owned.workspaceId}`;
    expected.set(path, basic('raw', 'secret'));
    const [{ id }] = await s.t.dataSource.query(`INSERT INTO webhooks (workspace_id, url, events) VALUES ($1, $2, '{scan.chat}') RETURNING id`, [
      owned.workspaceId,
      `http://raw:secret@${origin()}${path}`,
    ]);
    expect((await owned.as('get', `/api/webhooks/${id as string}`)).body.url).toBe(`http://raw:***@${origin()}${path}`);
    expect(await probe(owned, id as string)).toMatchObject({ status: 'delivered', response_status: 200 });
  });
});
