// bench/ingest-db, group commit: ingest() as production runs it (the whole app: the scan.chat
// outbox hook with one webhook per workspace, delivery jobs queued to Redis, live events) at 8,
// 64 and 256 concurrent callers over 200 and 20,000 known chats, next to plain batched INSERTs of
// the same rows in the same run; per-call p50/p99; the service without group commit (one
// transaction per call, as before) at 64 callers; a lone caller on an idle service, with and
// without group commit; and a paced 2,000 msg/s load, with what the disk's flushes took meanwhile.
//   env: BENCH_GROUP_N (messages per phase), BENCH_GROUP_CHATS ("200,20000"), BENCH_GROUP_CALLERS ("8,64,256"),
//        BENCH_PACED_RATE (2000), BENCH_PACED_N, BENCH_GROUP_BATCH / BENCH_GROUP_IN_FLIGHT /
//        BENCH_GROUP_MIN_BUSY / BENCH_GROUP_MAX_WAIT_MS (group limits), BENCH_GROUP_SKIP_OLD=1 (no phase without group
//        commit), BENCH_GROUP_CALLERS= (empty: no closed-loop phases, e.g. only the paced one),
//        BENCH_GROUP_WARMUP (untimed messages at 256 callers before each chat count's phases, 10,000),
//        BENCH_GROUP_ONLY=1 (only the baseline and the group commit phases: quick iterations, profiles),
//        BENCH_GROUP_HEADLINE_RUNS (runs of the 256-caller phase, its median the figure; 3),
//        BENCH_CPU_PROFILE=<dir> (a .cpuprofile of node per group-commit and paced phase, for Chrome DevTools),
//        BENCH_GROUP_WATCHED=1 (a Console open on every workspace: live events built, kept and
//        published; by default nobody watches, so ingest builds none, as in a burst into workspaces
//        without an open stream)
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { REDIS } from '../../src/infra/redis/redis.module.js';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { migrateDatabase } from '../../src/infra/database/migrator.js';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { percentile } from '../percentile.js';
import { reportResult } from '../result.js';
import { runBaseline } from './baseline.js';
import { redisCpuMs, sampleCpu, stealMs } from './cpu.js';
import { buildDataset } from './dataset.js';
import { startFlushProbe } from './flush-probe.js';

const N = Number(process.env.BENCH_GROUP_N ?? 20_000);
const CHATS = (process.env.BENCH_GROUP_CHATS ?? '200,20000').split(',').map(Number);
const CALLERS = (process.env.BENCH_GROUP_CALLERS ?? '8,64,256').split(',').filter(Boolean).map(Number);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 2_000);
const PACED_N = Number(process.env.BENCH_PACED_N ?? 10_000);
const IDLE_N = 300;
const WARMUP = Number(process.env.BENCH_GROUP_WARMUP ?? 10_000);
// The baseline runs this many times per chat count; its median is the figure (one run of 20,000
// rows lasts under a second, so a burst of steal on the shared VM could move it by a third).
const BASELINE_RUNS = 3;
// The 256-caller phase (the target's) runs this many times per chat count, its median the figure,
// as the baseline's: a run lasts about 1.5 s on a fast hour, and the share of the baseline moved by
// a tenth between single runs of the same code.
const HEADLINE_RUNS = Number(process.env.BENCH_GROUP_HEADLINE_RUNS ?? 3);
// The caller count the targets are stated for.
const HEADLINE_CALLERS = 256;
// The service's defaults (inbox-ingest.service.ts); overridable to tune them.
const GROUP_BATCH = Number(process.env.BENCH_GROUP_BATCH ?? 128);
const GROUP_IN_FLIGHT = Number(process.env.BENCH_GROUP_IN_FLIGHT ?? 3);
const GROUP_MIN_BUSY = Number(process.env.BENCH_GROUP_MIN_BUSY ?? 32);
const GROUP_MAX_WAIT = Number(process.env.BENCH_GROUP_MAX_WAIT_MS ?? 25);
const SKIP_OLD = process.env.BENCH_GROUP_SKIP_OLD === '1';
const WORKSPACES = 16;
const GROUP_ONLY = process.env.BENCH_GROUP_ONLY === '1';
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
const WATCHED = process.env.BENCH_GROUP_WATCHED === '1';

/** Runs `work` under node's CPU profiler when BENCH_CPU_PROFILE names a directory. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await mkdir(PROFILE_DIR, { recursive: true });
    await writeFile(`${PROFILE_DIR}/${name}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
}

interface Call {
  workspaceId: string;
  message: InboundMessage;
}

/** The server's WAL written so far (pg_stat_wal, server-wide): what a phase cost the disk. */
const walSoFar = async (db: DataSource): Promise<{ records: number; bytes: number; fpi: number }> =>
  (await db.query(`SELECT wal_records::float8 AS records, wal_bytes::float8 AS bytes, wal_fpi::float8 AS fpi FROM pg_stat_wal`))[0];

/**
 * Waits (up to 15 s) until no autovacuum worker runs: each measured run of the baseline and of the
 * target starts on a quiet server, not in the cleanup of the run before it, which otherwise landed
 * on whichever ran next. (A VACUUM here instead made the runs start alike too, but its dirty pages
 * were written out during the paced phase, whose commits then waited on the disk.)
 */
async function quiesce(db: DataSource): Promise<void> {
  for (let waited = 0; waited < 15_000; waited += 100) {
    const [busy] = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`);
    if (busy.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The middle item by `key` (the upper one of an even count). */
const median = <T>(items: readonly T[], key: (item: T) => number): T => [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)]!;

const loads = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Wall time and per-call latencies of `calls` through `callers` concurrent callers (caller k takes every k-th call, in order). */
async function drive(ingest: InboxIngestService, calls: Call[], callers: number): Promise<{ ms: number; latencies: number[] }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async (_, worker) => {
      for (let i = worker; i < calls.length; i += callers) {
        const { workspaceId, message } = calls[i]!;
        const t0 = performance.now();
        await ingest.ingest(workspaceId, message, { hooks: message.direction !== 'outbound' });
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { ms: performance.now() - started, latencies: latencies.sort((a, b) => a - b) };
}

/** Open loop: calls started at `rate` per second whatever the service does; latency per call. */
async function paced(ingest: InboxIngestService, calls: Call[], rate: number): Promise<{ ms: number; latencies: number[] }> {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  let next = 0;
  while (next < calls.length) {
    const due = Math.min(calls.length, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    for (; next < due; next++) {
      const { workspaceId, message } = calls[next]!;
      const t0 = performance.now();
      pending.push(ingest.ingest(workspaceId, message, { hooks: message.direction !== 'outbound' }).then(() => void latencies.push(performance.now() - t0)));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  return { ms: performance.now() - started, latencies: latencies.sort((a, b) => a - b) };
}

export async function runGroupCommit(server: string, redisUrl: string): Promise<void> {
  const database = `inbox_group_${randomBytes(4).toString('hex')}`;
  const url = new URL(server);
  url.pathname = `/${database}`;
  await migrateDatabase(url.toString());
  const prefix = `bench:ingest:${database}`;
  const config = loadConfig({ NODE_ENV: 'test', ROLE: 'api', DATABASE_URL: url.toString(), REDIS_URL: redisUrl, REDIS_PREFIX: prefix, LOG_LEVEL: 'warn' });
  const app: INestApplicationContext = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: false });
  try {
    await run(app, database);
  } finally {
    await app.close();
    const redis = new Redis(redisUrl);
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 1000 })) if ((keys as string[]).length) await redis.del(...(keys as string[]));
    redis.disconnect();
    const admin = new pg.Client({ connectionString: new URL('/postgres', server).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}

async function run(app: INestApplicationContext, database: string): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  // CPU per message (node + the database's Postgres backends + Redis): steadier than rates on a
  // shared machine; and the CPU the hypervisor took away meanwhile (steal), which rates suffer from.
  const redis = app.get<Redis>(REDIS);
  const backends = new Map<number, number>();
  const cpu = async <T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number; nodeMs: number; redisMs: number; stolenMs: number }> => {
    const before = { ...(await sampleCpu(db, database, backends)), redis: await redisCpuMs(redis), steal: stealMs() };
    const result = await work();
    const after = { ...(await sampleCpu(db, database, backends)), redis: await redisCpuMs(redis), steal: stealMs() };
    const redisMs = after.redis - before.redis;
    return {
      result,
      cpuMs: after.node - before.node + after.postgres - before.postgres + redisMs,
      nodeMs: after.node - before.node,
      redisMs,
      stolenMs: after.steal - before.steal,
    };
  };
  const ingest = app.get(InboxIngestService);
  // Group sizes as the writer sees them (a group of 1 is a caller alone), per phase.
  const writer = (ingest as unknown as { writer: { commit(items: readonly unknown[]): Promise<unknown> } }).writer;
  const commit = writer.commit.bind(writer);
  let sizes: number[] = [];
  writer.commit = (items) => {
    sizes.push(items.length);
    return commit(items);
  };
  const groupSizes = (): string => {
    const sorted = [...sizes].sort((a, b) => a - b);
    const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
    return `${fmt(sorted.length)} groups, mean ${mean.toFixed(0)}, p50 ${percentile(sorted, 50)}, p90 ${percentile(sorted, 90)}, max ${sorted[sorted.length - 1] ?? 0}`;
  };
  const grouped = (): void =>
    ingest.configureGroupCommit({ maxBatch: GROUP_BATCH, maxInFlight: GROUP_IN_FLIGHT, minBatchWhileBusy: GROUP_MIN_BUSY, maxWaitWhileBusyMs: GROUP_MAX_WAIT });
  const alone = (): void => ingest.configureGroupCommit({ maxBatch: 1, maxInFlight: Number.POSITIVE_INFINITY });
  let round = 0;
  const live = app.get(LiveEventsService);
  const watcher = redis.duplicate();
  let watchedEvents = 0;
  watcher.on('message', () => watchedEvents++);

  console.log('');
  console.log(`group commit: ingest() with the scan.chat outbox (one webhook per workspace, ${WORKSPACES} workspaces), ${fmt(N)} messages per phase`);
  console.log(
    WATCHED ? 'live events: a Console open on every workspace (built, kept for replay, published)' : 'live events: no workspace watched (none built)',
  );
  console.log(`load average before: ${loads()}`);
  console.log(
    `${'phase'.padEnd(66)}${'rate'.padEnd(14)}${'p50'.padEnd(10)}${'p99'.padEnd(10)}${'of baseline'.padEnd(13)}${'CPU/msg = node + Postgres + Redis'.padEnd(36)}steal`,
  );
  const line = (
    label: string,
    count: number,
    ms: number,
    latencies: number[] | null,
    baselineMs: number | null,
    cost?: { cpuMs: number; nodeMs: number; redisMs: number; stolenMs: number },
  ): void => {
    const us = (value: number): string => `${Math.round((value * 1000) / count)} µs`;
    const lat = latencies ? [percentile(latencies, 50), percentile(latencies, 99)] : null;
    const split = cost ? `${us(cost.cpuMs)} = ${us(cost.nodeMs)} + ${us(cost.cpuMs - cost.nodeMs - cost.redisMs)} + ${us(cost.redisMs)}` : '';
    console.log(
      `${label.padEnd(66)}${`${fmt((count * 1000) / ms)}/s`.padEnd(14)}${(lat ? `${lat[0]!.toFixed(1)} ms` : '').padEnd(10)}${(lat ? `${lat[1]!.toFixed(1)} ms` : '').padEnd(10)}` +
        (baselineMs ? `${((baselineMs / ms) * 100).toFixed(1)} %` : '').padEnd(13) +
        split.padEnd(36) +
        (cost ? `${((cost.stolenMs / ms) * 100).toFixed(0)} % of a core` : ''),
    );
  };

  for (const chats of CHATS) {
    const workspaces: string[] = [];
    for (let w = 0; w < WORKSPACES; w++) {
      const [row] = await db.query(`INSERT INTO workspaces (name) VALUES ('bench') RETURNING id`);
      workspaces.push(row.id as string);
      await db.query(`INSERT INTO webhooks (workspace_id, url, events) VALUES ($1, 'https://hooks.example.com/scan', '{scan.chat}')`, [row.id]);
    }
    // What a stream connection does for each workspace: the watch mark, then SUBSCRIBE.
    if (WATCHED) {
      await live.markWatched(workspaces);
      await watcher.subscribe(...workspaces.map((id) => live.channelOf(id)));
    }
    const workspaceOf = (chatJid: string): string => workspaces[Number(chatJid.slice(4, 13)) % WORKSPACES]!;
    // The chats exist (a first message each, through the bulk path, not timed): known chats.
    const warm = buildDataset(chats, chats, Date.UTC(2025, 0, 1)).messages.map((m) => ({ ...m, externalId: `warm-${chats}-${m.externalId}` }));
    for (const workspaceId of workspaces)
      await ingest.ingestBatch(
        workspaceId,
        warm.filter((m) => workspaceOf(m.chatJid) === workspaceId),
      );
    const phase = (tag: string, n = N): Call[] =>
      buildDataset(n, chats, Date.UTC(2026, 0, 1) + round++ * 1e9).messages.map((message) => ({
        workspaceId: workspaceOf(message.chatJid),
        message: { ...message, externalId: `${tag}-${message.externalId}` },
      }));
    // JIT, pooled connections, prepared statements: the steady state (the first phase measured
    // after a warm-up of 2,000 cost a third more node CPU per message than the same phase again).
    grouped();
    await drive(ingest, phase(`warmup-${chats}`, 2_000), 64);
    await drive(ingest, phase(`warmup2-${chats}`, WARMUP), 256);

    // Baseline: the same number of rows as plain batched INSERTs, into a workspace of its own
    // (each run its own, with its own rows); the median of BASELINE_RUNS runs.
    const baselineRun = async () => {
      const [base] = await db.query(`INSERT INTO workspaces (name) VALUES ('baseline') RETURNING id`);
      const client = (await (db.driver as unknown as { master: pg.Pool }).master.connect()) as pg.PoolClient;
      // One tag per run: a tag per row made `round` (each phase's start, 1e9 ms apart) so large that
      // the phases' messages were dated in year 3900, and past 9999 with BENCH_GROUP_N=100000.
      const tag = round++;
      const baseRows = buildDataset(N, chats).messages.map((m) => ({ ...m, externalId: `base-${tag}-${m.externalId}` }));
      return cpu(() => runBaseline(client, base.id as string, baseRows)).finally(() => client.release());
    };

    // One closed-loop phase: its timing and cost, and its group sizes and WAL, as printed.
    const closedLoop = async (callers: number, tag: string) => {
      const calls = phase(tag);
      const deliveriesBefore = (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries`))[0].n as number;
      sizes = [];
      const walBefore = await walSoFar(db);
      const { result: r, ...cost } = await cpu(() => profiled(tag, () => drive(ingest, calls, callers)));
      const walAfter = await walSoFar(db);
      const deliveries = (await db.query(`SELECT count(*)::int AS n FROM webhook_deliveries`))[0].n - deliveriesBefore;
      const inbound = calls.filter((c) => c.message.direction === 'inbound').length;
      if (deliveries !== inbound) throw new Error(`expected ${inbound} deliveries, found ${deliveries}`);
      const wal = `${((walAfter.records - walBefore.records) / N).toFixed(1)} records, ${fmt((walAfter.bytes - walBefore.bytes) / N)} bytes, ${((walAfter.fpi - walBefore.fpi) / N).toFixed(2)} full-page images`;
      return { r, cost, sizes: groupSizes(), wal };
    };
    type Measured = Awaited<ReturnType<typeof closedLoop>>;
    const measured = new Map<number, Measured[]>(CALLERS.map((callers) => [callers, []]));
    const measure = async (callers: number, run: number) =>
      measured.get(callers)!.push(await closedLoop(callers, `group-${callers}-${chats}${run ? `-${run + 1}` : ''}`));
    for (const callers of CALLERS.filter((c) => c !== HEADLINE_CALLERS)) await measure(callers, 0);
    // The baseline's runs alternate with the target's (B H B H B H), so the shared VM's drifts
    // (its speed moved by a fifth within minutes) reach both alike: run one after the other, a slow
    // stretch during either moved the share of the baseline by several points.
    const headlineRuns = CALLERS.includes(HEADLINE_CALLERS) ? Math.max(1, HEADLINE_RUNS) : 0;
    const runs: Awaited<ReturnType<typeof baselineRun>>[] = [];
    for (let run = 0; run < Math.max(BASELINE_RUNS, headlineRuns); run++) {
      await quiesce(db);
      if (run < BASELINE_RUNS) runs.push(await baselineRun());
      await quiesce(db);
      if (run < headlineRuns) await measure(HEADLINE_CALLERS, run);
    }
    const baseline = median(runs, (run) => run.result);
    const baselineMs = baseline.result;
    line(`baseline: plain INSERT … VALUES, ${chats} chats (median of ${BASELINE_RUNS})`, N, baselineMs, null, null, baseline);
    console.log(`  baseline runs: ${runs.map((r) => `${fmt((N * 1000) / r.result)}/s`).join(', ')}`);
    const baselineRate = (N * 1000) / baselineMs;

    for (const callers of CALLERS) {
      const headline = callers === HEADLINE_CALLERS;
      const all = measured.get(callers)!;
      const { r, cost, sizes: sized, wal } = median(all, (m) => m.r.ms);
      line(`ingest() + outbox, group commit, ${callers} callers, ${chats} chats`, N, r.ms, r.latencies, baselineMs, cost);
      if (all.length > 1) {
        console.log(`  runs: ${all.map((m) => `${fmt((N * 1000) / m.r.ms)}/s`).join(', ')} (the line above: their median)`);
        // Each run against the baseline run just before it.
        console.log(
          `  each against the baseline run before it: ${all.map((m, i) => (runs[i] ? `${((runs[i]!.result / m.r.ms) * 100).toFixed(1)} %` : '-')).join(', ')}`,
        );
      }
      console.log(`  group sizes: ${sized}`);
      console.log(`  WAL per message (whole server): ${wal}`);
      const value = (N * 1000) / r.ms;
      reportResult({
        figure: `ingest: ingest() + outbox, group commit, ${callers} callers, ${chats} chats (msg/s)`,
        value,
        baseline: baselineRate,
        ratio: baselineMs / r.ms,
        target: headline ? '>= 5000 msg/s and >= 0.30 of plain INSERTs' : 'informational',
        ...(headline ? { met: value >= 5000 && baselineMs / r.ms >= 0.3 } : {}),
      });
      reportResult({
        figure: `ingest: ingest() + outbox p99 per call, ${callers} callers, ${chats} chats (ms)`,
        value: percentile(r.latencies, 99),
        baseline: null,
        ratio: null,
        target: 'informational',
      });
    }
    if (GROUP_ONLY) continue;
    // The service as it was: one transaction (or statement) per call.
    if (!SKIP_OLD) {
      alone();
      const { result: old, ...oldCost } = await cpu(() => drive(ingest, phase(`old-${chats}`), 64));
      grouped();
      line(`ingest() + outbox, one transaction per call, 64 callers, ${chats} chats`, N, old.ms, old.latencies, baselineMs, oldCost);
      reportResult({
        figure: `ingest: ingest() + outbox, one transaction per call, 64 callers, ${chats} chats (msg/s)`,
        value: (N * 1000) / old.ms,
        baseline: baselineRate,
        ratio: baselineMs / old.ms,
        target: 'informational (before group commit)',
      });
    }

    if (chats === CHATS[0]) {
      // A lone caller on an idle service, alternating both modes so load drifts hit both alike.
      const idle = { grouped: [] as number[], alone: [] as number[] };
      const calls = phase(`idle-${chats}`, 2 * IDLE_N);
      for (let i = 0; i < calls.length; i++) {
        // Blocks of 4 calls (each holds one outbound message, which runs no hooks), so both modes get the same mix.
        const mode = Math.floor(i / 4) % 2 === 0 ? 'grouped' : 'alone';
        if (mode === 'grouped') grouped();
        else alone();
        const { workspaceId, message } = calls[i]!;
        const t0 = performance.now();
        await ingest.ingest(workspaceId, message, { hooks: message.direction !== 'outbound' });
        idle[mode].push(performance.now() - t0);
      }
      grouped();
      for (const mode of ['alone', 'grouped'] as const) {
        const sorted = idle[mode].sort((a, b) => a - b);
        console.log(
          `${`idle single caller, ${mode === 'grouped' ? 'group commit' : 'one transaction per call'}`.padEnd(52)}${''.padEnd(14)}${`${percentile(sorted, 50).toFixed(2)} ms`.padEnd(10)}${percentile(sorted, 99).toFixed(2)} ms`,
        );
      }
      const g = percentile(
        idle.grouped.sort((a, b) => a - b),
        50,
      );
      const a = percentile(
        idle.alone.sort((x, y) => x - y),
        50,
      );
      reportResult({
        figure: 'ingest: idle single call p50, group commit (ms)',
        value: g,
        baseline: a,
        ratio: g / a,
        target: 'no slower than one transaction per call (ratio <= ~1.1)',
        met: g <= a * 1.1,
      });

      const probe = await startFlushProbe(db);
      const { result: p, ...pacedCost } = await cpu(() => profiled('paced', () => paced(ingest, phase(`paced-${chats}`, PACED_N), PACED_RATE)));
      const flush = await probe?.stop();
      line(`paced ${fmt(PACED_RATE)} msg/s, ${chats} chats (achieved)`, PACED_N, p.ms, p.latencies, null, pacedCost);
      const p99 = percentile(p.latencies, 99);
      console.log(`  calls over 50 ms: ${fmt(p.latencies.filter((ms) => ms > 50).length)} of ${fmt(PACED_N)}`);
      if (flush) {
        // A durable COMMIT waits for the WAL flush: calls in flight during a slow flush wait as long.
        console.log(
          `  disk flush meanwhile (8 KB fdatasync next to the database, ${fmt(flush.count)} probes): p50 ${flush.p50.toFixed(2)} ms, p99 ${flush.p99.toFixed(2)} ms, max ${flush.max.toFixed(1)} ms`,
        );
        console.log(`  flushes of 20 ms or more: ${flush.stalls.length ? flush.stalls.join(', ') : 'none'}`);
      }
      reportResult({
        figure: `ingest: p99 per call at ${PACED_RATE} msg/s paced (ms)`,
        value: p99,
        baseline: null,
        ratio: null,
        target: '< 50 ms',
        met: p99 < 50,
      });
    }
  }
  const [conv] = await db.query(
    `SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot, n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'conversations'`,
  );
  console.log(`conversation updates over the group-commit phases: ${fmt(conv.upd)}, of which HOT ${fmt(conv.hot)}; dead tuples now ${fmt(conv.dead)}`);
  if (WATCHED) console.log(`live events published to the watching subscriber: ${fmt(watchedEvents)}`);
  watcher.disconnect();
  console.log(`load average after: ${loads()}`);
}
