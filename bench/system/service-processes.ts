// The service under test as production runs it: the built `node dist/src/main.js`, one `api` and
// one `worker` process, each with its own environment, in a scratch directory (no `.env` of the
// repository applies; its media directory and the processes' logs live there), on a scratch
// database bench_system_<pid> of the local Postgres (dropped by stop) and a Redis prefix of its own.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SIM_CA_FILE } from '../../test/whatsapp-sim/media-host.js';
import { waitFor } from './proc-stats.js';

/** The repository: the nearest folder up with a package.json (this file runs from dist/bench-build/). */
function repositoryRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
const ROOT = repositoryRoot(import.meta.dirname);
const MAIN = join(ROOT, 'dist/src/main.js');
const CLI = join(ROOT, 'dist/src/cli.js');
const SERVER = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const METRICS_TOKEN = 'bench-system-metrics-token-0123456789';
const run = promisify(execFile);

const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
};

/** Compiles the service when a source is newer than dist/ (scripts/build-if-needed.mjs). */
export const buildServiceIfNeeded = (): void => {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' });
};

/** One process of the built service. */
export class ServiceProcess {
  private child: ChildProcess | undefined;

  constructor(
    readonly name: string,
    private readonly dir: string,
    readonly env: Record<string, string>,
    /** Options of node itself (the soak's worker: `--inspect` on a loopback port, worker-inspector.ts). */
    private readonly nodeArgs: string[] = [],
  ) {}

  get pid(): number {
    if (!this.child?.pid) throw new Error(`${this.name} is not running`);
    return this.child.pid;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.env.PORT}`;
  }

  private get probeUrl(): string {
    return this.env.ROLE === 'worker' ? `http://127.0.0.1:${this.env.METRICS_PORT}/metrics` : `${this.baseUrl}/api/health`;
  }

  async start(): Promise<void> {
    const log = openSync(join(this.dir, `${this.name}.log`), 'a');
    const { NODE_OPTIONS: _ignored, ...parent } = process.env;
    const child = spawn(process.execPath, [...this.nodeArgs, MAIN], { cwd: this.dir, env: { ...parent, ...this.env }, stdio: ['ignore', log, log] });
    closeSync(log);
    this.child = child;
    await waitFor(
      `${this.name} ready`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${this.name} exited during start-up:\n${this.logTail()}`);
        const res = await fetch(this.probeUrl, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(2000) });
        return res.status === 200;
      },
      90_000,
      200,
    );
  }

  /** SIGTERM, then SIGKILL after 20 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }

  logTail(lines = 30): string {
    try {
      return readFileSync(join(this.dir, `${this.name}.log`), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .join('\n');
    } catch {
      return '(no log)';
    }
  }
}

/** The api and the worker process on their scratch database, pointed at the simulator. */
export class ServiceCluster {
  readonly db: pg.Pool;

  private constructor(
    readonly dir: string,
    readonly database: string,
    readonly env: Record<string, string>,
    readonly api: ServiceProcess,
    readonly worker: ServiceProcess,
    /** The worker's inspector port, when it was started with one. */
    readonly inspectPort: number | undefined,
  ) {
    this.db = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
  }

  static async start(simUrl: string, options: { extraEnv?: Record<string, string>; inspectWorker?: boolean } = {}): Promise<ServiceCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-system-'));
    const database = `bench_system_${process.pid}`;
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATABASE_URL: `${SERVER}/${database}`,
      REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `bench:system:${process.pid}`,
      LOG_LEVEL: 'warn',
      WA_LOG_LEVEL: 'silent',
      WA_WEBSOCKET_URL: simUrl,
      WA_MEDIA_CA_FILE: SIM_CA_FILE,
      // The simulator's media host and the benchmark's webhook receiver are on 127.0.0.1.
      ALLOW_PRIVATE_MEDIA_URLS: 'true',
      ALLOW_HTTP_WEBHOOKS: 'true',
      ALLOW_PRIVATE_WEBHOOKS: 'true',
      MEDIA_DIR: join(dir, 'media'),
      METRICS_TOKEN,
      TRUST_PROXY: 'false',
      CHAT_CONNECT_WAIT_MS: '30000',
      // The service's defaults otherwise: the processes inherit the bench's environment (a
      // WORKER_CONCURRENCY set there applies), and its CHAT_*, WA_* and WEBHOOK_* variables win
      // over the ones above.
      ...Object.fromEntries(Object.entries(process.env).filter(([k, v]) => /^(CHAT|WA|WEBHOOK)_/.test(k) && v !== undefined) as [string, string][]),
      ...options.extraEnv,
    };
    const apiPort = String(await freePort());
    const api = new ServiceProcess('api', dir, { ...env, ROLE: 'api', PORT: apiPort, PUBLIC_URL: `http://127.0.0.1:${apiPort}` });
    const inspectPort = options.inspectWorker ? await freePort() : undefined;
    const workerArgs = inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
    const worker = new ServiceProcess('worker', dir, { ...env, ROLE: 'worker', METRICS_PORT: String(await freePort()) }, workerArgs);
    // The api process creates the database and migrates it; the worker starts on it.
    await api.start();
    await worker.start();
    return new ServiceCluster(dir, database, env, api, worker, inspectPort);
  }

  /** `node dist/src/cli.js …` against the cluster's database; its JSON answer. */
  async cli(...args: string[]): Promise<Record<string, unknown>> {
    const { NODE_OPTIONS: _ignored, ...parent } = process.env;
    const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: this.dir, env: { ...parent, ...this.env } });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  /** Stops both processes, drops the database and the scratch directory (BENCH_KEEP_LOGS=1 keeps it). */
  async stop(): Promise<void> {
    await this.worker.stop();
    await this.api.stop();
    await this.db.end();
    const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${this.database}" WITH (FORCE)`);
    await admin.end();
    // The processes' Redis keys (queues, leases, live state) under the run's own prefix.
    const redis = new Redis(this.env.REDIS_URL!);
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.env.REDIS_PREFIX}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
    redis.disconnect();
    if (process.env.BENCH_KEEP_LOGS === '1') console.log(`service logs kept in ${this.dir}`);
    else rmSync(this.dir, { recursive: true, force: true });
  }
}
