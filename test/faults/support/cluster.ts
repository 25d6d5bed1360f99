import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../src/infra/config/app-config.js';
import { EncryptionService } from '../../../src/infra/crypto/encryption.service.js';
import { PostgresScanAuthStorageFactory } from '../../../src/modules/chat/auth-state/postgres-scan-auth.storage.js';
import { ScanAuthRepository } from '../../../src/modules/chat/auth-state/scan-auth.repository.js';
import type { WhatsAppSimulator } from '../../whatsapp-sim/whatsapp-simulator.js';
import { onCleanup, removeDir } from './cleanup.js';
import { freePort, waitFor } from './ports.js';
import { PrivatePostgres } from './private-postgres.js';
import { PrivateRedis } from './private-redis.js';
import { ServiceProcess } from './service-process.js';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../../dist/src/cli.js');

export const METRICS_TOKEN = 'fault-suite-metrics-token-0123456789';

/** Webhooks to a loopback receiver, retried within seconds, lost jobs re-queued every second. */
const FAST_WEBHOOKS = {
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '300ms,500ms,1s,1s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s,2s',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '2000',
};

/** Chat timings for a loopback cluster: a dead worker's numbers move within ~4 s. */
const FAST_CHAT = {
  CHAT_LEASE_TTL_MS: '3000',
  CHAT_SWEEP_INTERVAL_MS: '300',
  CHAT_RESUME_PER_SECOND: '50',
  CHAT_RECONNECT_BASE_MS: '100',
  CHAT_RECONNECT_MAX_MS: '1000',
  CHAT_MAX_FAILURES: '50',
  CHAT_CONNECT_WAIT_MS: '5000',
};

export interface Workspace {
  id: string;
  key: string;
  cookie: string;
  phone: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * The whole cluster on loopback: a private Postgres and Redis, 2 api and 2 worker processes of
 * the built service, pointed at a WhatsApp simulator running in the test process.
 */
export class FaultCluster {
  readonly apis: ServiceProcess[] = [];
  readonly workers: ServiceProcess[] = [];
  private pool: pg.Pool | undefined;

  private constructor(
    readonly dir: string,
    readonly postgres: PrivatePostgres,
    readonly redis: PrivateRedis,
    readonly sim: WhatsAppSimulator,
    readonly env: Record<string, string>,
  ) {}

  static async start(sim: WhatsAppSimulator, extraEnv: Record<string, string> = {}): Promise<FaultCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-faults-'));
    // FAULTS_KEEP_LOGS=1 keeps the processes' logs for a post-mortem (the path is printed).
    const keep = process.env.FAULTS_KEEP_LOGS === '1';
    const removeLogs = (): void => (keep ? console.log(`fault suite: logs kept in ${dir}`) : removeDir(dir));
    onCleanup(`logs ${dir}`, async () => removeLogs(), removeLogs);
    const [postgres, redis] = await Promise.all([PrivatePostgres.start(), PrivateRedis.start()]);
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATABASE_URL: postgres.databaseUrl('inbox'),
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'faults',
      LOG_LEVEL: 'info',
      WA_LOG_LEVEL: 'silent',
      WA_WEBSOCKET_URL: sim.url,
      // The simulator's media host is on 127.0.0.1.
      ALLOW_PRIVATE_MEDIA_URLS: 'true',
      METRICS_TOKEN,
      TRUST_PROXY: 'false',
      ...FAST_CHAT,
      ...FAST_WEBHOOKS,
      ...extraEnv,
    };
    const cluster = new FaultCluster(dir, postgres, redis, sim, env);
    onCleanup(
      'fault cluster pool',
      async () => cluster.pool?.end(),
      () => undefined,
    );
    for (let i = 1; i <= 2; i += 1) {
      const port = String(await freePort());
      cluster.apis.push(new ServiceProcess(`api-${i}`, dir, { ...env, ROLE: 'api', PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}` }));
      cluster.workers.push(new ServiceProcess(`worker-${i}`, dir, { ...env, ROLE: 'worker', METRICS_PORT: String(await freePort()) }));
    }
    // The first process creates the database and migrates it; the others then start together.
    await cluster.apis[0]!.start();
    await Promise.all([cluster.apis[1]!.start(), ...cluster.workers.map((worker) => worker.start())]);
    return cluster;
  }

  get db(): pg.Pool {
    if (!this.pool) {
      this.pool = new pg.Pool({ connectionString: this.env.DATABASE_URL, max: 2, connectionTimeoutMillis: 2000 });
      // Idle connections die with the Postgres outage; the pool replaces them.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  /** `npm run cli -- …` against the cluster (the built dist/src/cli.js). */
  async cli(...args: string[]): Promise<Record<string, unknown>> {
    const { NODE_OPTIONS: _ignored, ...parent } = process.env;
    const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: this.dir, env: { ...parent, ...this.env } });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  /** A request to api process `i` (default the first). */
  async request(method: string, path: string, auth: { key?: string; cookie?: string; tenant?: string } = {}, body?: unknown, i = 0): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (auth.key) headers.Authorization = `Bearer ${auth.key}`;
    if (auth.cookie) headers.Cookie = auth.cookie;
    if (auth.tenant) headers['X-Tenant-ID'] = auth.tenant;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.apis[i]!.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (metrics text)
    }
    return { status: res.status, body: parsed };
  }

  /** A workspace with an active subscription, its owner's session and a write key (through the CLI and the API). */
  async workspace(name: string, phone: string): Promise<Workspace> {
    const email = `${name.toLowerCase()}@faults.test`;
    const password = 'fault suite password';
    const created = (await this.cli('create-workspace', '--name', name, '--owner-email', email, '--owner-password', password, '--subscription', 'active')) as {
      workspace: { id: string };
    };
    const id = created.workspace.id;
    const { key } = (await this.cli('issue-key', id, '--scope', 'write')) as { key: string };
    const res = await fetch(`${this.apis.find((api) => api.running)!.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('svc_session='));
    if (res.status !== 200 || !cookie) throw new Error(`login answered ${res.status}`);
    return { id, key, cookie, phone };
  }

  /**
   * `count` more workspaces of `owner`'s user (through the API: no CLI start per workspace), each
   * active, with a write key, for the numbers `phones`.
   */
  async moreWorkspaces(owner: Workspace, phones: string[]): Promise<Workspace[]> {
    const made: Workspace[] = [];
    for (const phone of phones) {
      const created = await this.request('POST', '/api/workspaces', { cookie: owner.cookie }, { name: `Number ${phone}` });
      if (created.status !== 201) throw new Error(`creating a workspace answered ${created.status} ${JSON.stringify(created.body)}`);
      const id = (created.body as { id: string }).id;
      // Billing is the operator's (the CLI's `subscription`); here straight in the database.
      await this.db.query(`UPDATE workspaces SET subscription_status = 'active' WHERE id = $1`, [id]);
      const issued = await this.request('POST', '/api/keys', { cookie: owner.cookie, tenant: id }, { name: 'faults', scope: 'write' });
      if (issued.status !== 201) throw new Error(`issuing a key answered ${issued.status} ${JSON.stringify(issued.body)}`);
      made.push({ id, key: (issued.body as { key: string }).key, cookie: owner.cookie, phone });
    }
    return made;
  }

  /** One more worker process (not started), like the others, with `extra` in its environment. */
  async addWorker(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const worker = new ServiceProcess(`worker-${this.workers.length + 1}`, this.dir, {
      ...this.env,
      ROLE: 'worker',
      METRICS_PORT: String(await freePort()),
      ...extra,
    });
    this.workers.push(worker);
    return worker;
  }

  /** A `scan.chat` webhook of the workspace to `url` (as its owner, in the Console). */
  async addWebhook(ws: Workspace, url: string): Promise<void> {
    const res = await this.request('POST', '/api/webhooks', { cookie: ws.cookie, tenant: ws.id }, { url, events: ['scan.chat'] });
    if (res.status !== 201) throw new Error(`creating the webhook answered ${res.status} ${JSON.stringify(res.body)}`);
  }

  /**
   * Connects a Cloud API number (registered with the fake Graph API first) to the workspace through
   * `PUT /api/meta/settings`, which checks it against the provider.
   */
  async connectCloudNumber(ws: Workspace, number: { phoneNumberId: string; wabaId: string; token: string }): Promise<void> {
    const res = await this.request(
      'PUT',
      '/api/meta/settings',
      { cookie: ws.cookie, tenant: ws.id },
      {
        phone_number_id: number.phoneNumberId,
        waba_id: number.wabaId,
        access_token: number.token,
      },
    );
    if (res.status !== 200) throw new Error(`meta settings answered ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** Whether every one of `workspaces` reports its number connected. */
  async allConnected(workspaces: readonly Workspace[]): Promise<boolean> {
    for (const ws of workspaces) if ((await this.status(ws)).connected !== true) return false;
    return true;
  }

  async status(ws: Workspace, i = 0): Promise<Record<string, unknown>> {
    return (await this.request('GET', '/api/chat/status', { key: ws.key }, undefined, i)).body as Record<string, unknown>;
  }

  /** Connect → QR → the simulated phone scans → connected, and the link has settled. */
  async link(ws: Workspace): Promise<void> {
    const connect = await this.request('POST', '/api/chat/connect', { cookie: ws.cookie, tenant: ws.id });
    if (connect.status !== 200) throw new Error(`connect answered ${connect.status} ${JSON.stringify(connect.body)}`);
    const qr = await waitFor('a QR code', async () => {
      const body = (await this.request('GET', '/api/chat/qr', { key: ws.key })).body as { pending?: boolean; code?: string };
      return body.pending ? body.code : undefined;
    });
    await this.sim.scanQr(qr, ws.phone);
    await this.sim.waitForLive(ws.phone);
    await waitFor(`${ws.phone} connected`, async () => (await this.status(ws)).connected === true);
    await this.linkSettled(ws.id);
  }

  /**
   * Baileys saves `accountSyncCounter > 0` once the first login's app-state sync is done; a socket
   * reopened from creds saved before that holds messages back for 20 s (see docs/whatsapp-sim.md).
   */
  private async linkSettled(workspaceId: string): Promise<void> {
    // The repository on this process's own pool: the stand-in answers the one call its SqlExecutor
    // makes (a bound query runner's structured `query`), so no TypeORM DataSource is set up here.
    const queryRunner = {
      query: async (sql: string, params: unknown[]) => {
        const result = await this.db.query(sql, params);
        return { records: result.rows, affected: result.rowCount ?? 0 };
      },
    };
    const db = { manager: { queryRunner } } as unknown as DataSource;
    const storage = new PostgresScanAuthStorageFactory(new ScanAuthRepository(db), new EncryptionService(loadConfig(this.env))).forWorkspace(workspaceId);
    await waitFor('the link settled', async () => {
      const raw = await storage.readCreds();
      return raw !== null && Number((JSON.parse(raw) as { accountSyncCounter?: number }).accountSyncCounter ?? 0) > 0;
    });
  }

  /** Channel message id → how many rows the workspace has for it. */
  async storedCounts(workspaceId: string): Promise<Map<string, number>> {
    const { rows } = await this.db.query<{ external_id: string; n: number }>(
      `SELECT external_id, count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'inbound' GROUP BY external_id`,
      [workspaceId],
    );
    return new Map(rows.map((row) => [row.external_id, row.n]));
  }

  /** Waits until every id is stored, then answers the ids stored more than once (must be none). */
  async allStoredOnce(workspaceId: string, ids: string[], timeoutMs = 30_000): Promise<string[]> {
    const counts = await waitFor(
      `${ids.length} messages stored`,
      async () => {
        const stored = await this.storedCounts(workspaceId);
        return ids.every((id) => stored.has(id)) ? stored : undefined;
      },
      timeoutMs,
      200,
    ).catch(async (error: Error) => {
      const stored = await this.storedCounts(workspaceId).catch(() => new Map<string, number>());
      throw new Error(`${error.message}; missing: ${ids.filter((id) => !stored.has(id)).join(', ')}`);
    });
    return ids.filter((id) => (counts.get(id) ?? 0) > 1);
  }

  /** A process's metrics (workers on METRICS_PORT, api processes on /metrics). */
  async metrics(process: ServiceProcess): Promise<string> {
    const url = process.role === 'worker' ? process.probeUrl : `${process.baseUrl}/metrics`;
    const res = await fetch(url, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(5000) });
    return res.text();
  }

  /** Sockets each worker holds right now (its `inbox_scan_sockets_held`); a stopped or booting worker holds none. */
  async held(): Promise<number[]> {
    return Promise.all(
      this.workers.map(async (worker) => {
        if (!worker.running) return 0;
        // A worker still booting (its metrics port not open yet) holds none either.
        const text = await this.metrics(worker).catch(() => '');
        const match = /^inbox_scan_sockets_held (\d+)$/m.exec(text);
        return match ? Number(match[1]) : 0;
      }),
    );
  }

  /** Log tails of every process, for a failure message. */
  logs(): string {
    return [...this.apis, ...this.workers].map((p) => `--- ${p.name} (pid ${p.pid}) ---\n${p.logTail(25)}`).join('\n');
  }
}
