// bench/auth: requests per second of GET /api/workspace (a cheap member route) authenticated with
// an API key, next to the same service call on a route marked public (the baseline), and with a
// session cookie for reference, all in one run against one app on a scratch database.
//   npm run bench:auth     (BENCH_SECONDS per round, BENCH_ROUNDS, BENCH_CONCURRENCY, BENCH_MAX_REQUESTS,
//                           BENCH_LOG_LEVEL, BENCH_DATABASE_SERVER, BENCH_REDIS_URL)
// Rounds alternate between the variants so drift (CPU frequency, autovacuum) hits them alike;
// each figure is the median round. Requests go only to 127.0.0.1.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { HTTP_APP_OPTIONS } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { configureApp } from '../../src/infra/http/configure-app.js';
import { REDIS } from '../../src/infra/redis/redis.module.js';
import { ApiKeyService } from '../../src/modules/auth/api-keys/api-key.service.js';
import { SESSION_COOKIE } from '../../src/modules/auth/sessions/session-cookie.js';
import { SessionService } from '../../src/modules/auth/sessions/session.service.js';
import { BenchAppModule } from './bench-app.module.js';
import { reportResult } from '../result.js';
import type { LoadJob, LoadResult } from './load-client.js';

// Many short interleaved rounds: this 2-core VM drifts by ±15% from one round to the next, so the
// figures that count are per-round pairs (adjacent rounds drift together), summarised by median and
// interquartile range.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const MAX_REQUESTS = Number(process.env.BENCH_MAX_REQUESTS ?? 200_000);
const SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const urlOf = (name: string): string => {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
};

/** One round: the load client's result plus the server's CPU time per request (µs). */
function load(job: LoadJob): Promise<LoadResult & { cpuPerRequestUs: number }> {
  return new Promise((resolve, reject) => {
    const client = fork(new URL('./load-client.js', import.meta.url));
    let cpu: NodeJS.CpuUsage | undefined;
    client.once('spawn', () => {
      cpu = process.cpuUsage();
      client.send(job);
    });
    client.once('message', (message) => {
      const result = message as LoadResult;
      const used = process.cpuUsage(cpu);
      resolve({ ...result, cpuPerRequestUs: (used.user + used.system) / Math.max(result.requests, 1) });
    });
    client.once('error', reject);
  });
}

const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const median = (values: number[]): number => quantile(values, 0.5);
/** `median (p25..p75)` of `values`, formatted by `format`. */
const spread = (values: number[], format: (n: number) => string): string =>
  `${format(median(values))} (interquartile ${format(quantile(values, 0.25))} .. ${format(quantile(values, 0.75))})`;
const fmt = (rps: number): string => `${Math.round(rps).toLocaleString('en-US')} req/s`.padStart(14);

interface Variant {
  name: string;
  path: string;
  headers: Record<string, string>;
  rates: number[];
  cpu: number[];
}

async function main(): Promise<void> {
  const database = `inbox_bench_${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ROLE: 'api',
    DATABASE_URL: urlOf(database),
    DB_MIGRATE_ON_START: 'true', // creates and migrates the scratch database
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `bench:${randomBytes(4).toString('hex')}`,
    // Request logs cost the same on every variant; off by default so the auth cost stands out.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  });
  const app = await NestFactory.create<NestExpressApplication>(BenchAppModule.forRoot(config), { ...HTTP_APP_OPTIONS, logger: ['error', 'warn'] });
  configureApp(app, config);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as { port: number }).port;
  try {
    const db = app.get(DataSource);
    const [workspace] = await db.query(`INSERT INTO workspaces (name, subscription_status) VALUES ('Bench', 'active') RETURNING id`);
    const [user] = await db.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`);
    await db.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'owner')`, [workspace.id, user.id]);
    const { key } = await app.get(ApiKeyService).create(workspace.id, 'bench', 'read', null);
    const { token } = await app.get(SessionService).create(user.id);

    const variants: Variant[] = [
      { name: 'public route (baseline)', path: '/bench/workspace', headers: { 'X-Tenant-ID': workspace.id }, rates: [], cpu: [] },
      { name: 'API key', path: '/api/workspace', headers: { Authorization: `Bearer ${key}` }, rates: [], cpu: [] },
      { name: 'session cookie', path: '/api/workspace', headers: { Cookie: `${SESSION_COOKIE}=${token}`, 'X-Tenant-ID': workspace.id }, rates: [], cpu: [] },
    ];
    // BENCH_ONLY=key (or public, session) runs one variant, e.g. under --cpu-prof.
    if (process.env.BENCH_ONLY) variants.splice(0, variants.length, ...variants.filter((v) => v.name.toLowerCase().includes(process.env.BENCH_ONLY!)));
    const job = (v: Variant, seconds: number): LoadJob => ({
      port,
      path: v.path,
      headers: v.headers,
      concurrency: CONCURRENCY,
      durationMs: seconds * 1000,
      maxRequests: MAX_REQUESTS,
    });

    const measure = async (v: Variant): Promise<void> => {
      const result = await load(job(v, SECONDS));
      const bad = Object.entries(result.statuses).filter(([status]) => status !== '200');
      if (bad.length) throw new Error(`${v.name}: unexpected statuses ${JSON.stringify(result.statuses)}`);
      v.rates.push((result.requests * 1000) / result.elapsedMs);
      v.cpu.push(result.cpuPerRequestUs);
    };
    for (const v of variants) await load(job(v, 1)); // warm-up: JIT, connection pools, plans
    // The compared pair alternates (A B, B A, ...), so each side follows the other as often as
    // itself; the session variant, which allocates far more, runs apart so its garbage is not
    // collected on either side's time.
    const pair = variants.slice(0, 2);
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of round % 2 ? [...pair].reverse() : pair) await measure(v);
    }
    for (const v of variants.slice(2)) for (let round = 0; round < ROUNDS; round++) await measure(v);

    if (variants.length < 3) {
      for (const v of variants) console.log(`${v.name}: ${fmt(median(v.rates))}  ${Math.round(median(v.cpu))} µs server CPU/req`);
      return;
    }
    const [baseline, withKey] = variants.map((v) => median(v.rates)) as [number, number, number];
    const [cpuBase, cpuKey] = variants.map((v) => median(v.cpu)) as [number, number, number];
    const load1 = (await import('node:os')).loadavg()[0]!.toFixed(1);
    console.log(
      `bench/auth: GET /api/workspace, ${CONCURRENCY} connections, ${ROUNDS} rounds x ${SECONDS}s per variant (median), LOG_LEVEL=${config.logLevel}, load average ${load1}`,
    );
    for (const v of variants) {
      console.log(
        `  ${v.name.padEnd(24)} ${fmt(median(v.rates))}  ${Math.round(median(v.cpu))} µs server CPU/req   rounds: ${v.rates.map((r) => Math.round(r)).join(', ')}`,
      );
    }
    const cost = (rate: number): string => `${(((baseline - rate) / baseline) * 100).toFixed(1)}%`;
    console.log(`  key / public ratio of medians: ${(withKey / baseline).toFixed(3)}  (the key check costs ${cost(withKey)} of throughput)`);
    console.log(
      `  key CPU, difference of medians: +${Math.round(cpuKey - cpuBase)} µs per request (+${(((cpuKey - cpuBase) / cpuBase) * 100).toFixed(1)}% server CPU)`,
    );
    // Rounds of one pass run back to back, so their ratio cancels most of the machine's drift.
    const [publicRounds, keyRounds, sessionRounds] = variants as [Variant, Variant, Variant];
    const ratios = keyRounds.rates.map((rate, i) => rate / publicRounds.rates[i]!);
    const cpuShares = keyRounds.cpu.map((cpu, i) => (cpu - publicRounds.cpu[i]!) / publicRounds.cpu[i]!);
    const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;
    console.log(`  key / public throughput, per-round pairs: ${spread(ratios, (n) => n.toFixed(3))}  (target: above 0.900)`);
    console.log(`  key CPU cost, per-round pairs: ${spread(cpuShares, pct)} of the public route's server CPU  (target: under 10%)`);
    console.log(
      `  session / public throughput: ${(median(sessionRounds.rates) / baseline).toFixed(3)}  (session + membership check, measured after the pair; no target)`,
    );
    const ratioMedian = median(ratios);
    const cpuShare = median(cpuShares);
    reportResult({
      figure: 'auth: API-key route throughput (req/s)',
      value: withKey,
      baseline,
      ratio: ratioMedian,
      target: 'ratio > 0.900 (per-round pairs, median)',
      met: ratioMedian > 0.9,
    });
    // The ratio printed is the one the verdict is taken on (per-round pairs), not the ratio of the
    // two medians, so the table's ratio and its verdict never disagree.
    reportResult({
      figure: 'auth: key check CPU (µs/request)',
      value: cpuKey,
      baseline: cpuBase,
      ratio: 1 + cpuShare,
      target: 'ratio < 1.10 (per-round pairs, median): extra CPU < 10 % of the public route',
      met: cpuShare < 0.1,
    });
  } finally {
    const redis = app.get<Redis>(REDIS);
    const stale = await redis.keys(`${config.redisPrefix}:*`);
    if (stale.length) await redis.unlink(...stale);
    await app.close();
    const admin = new pg.Client({ connectionString: urlOf('postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}

await main();
