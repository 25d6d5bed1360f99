// bench/ingest-db: N messages over C chats through InboxIngestService.ingest() (P parallel callers,
// each owning a share of the chats, as channel sockets do) and through ingestBatch(), next to a
// baseline of plain batched INSERTs of the same rows, all in one run on a scratch database.
// ingest() runs twice: with the real live-event publishing to Redis, as production does (the
// headline figure), and with a no-op publisher (the database path alone).
// Then group commit with the outbox at 8/64/256 callers (group-commit.ts).
//   npm run bench:ingest   (env: BENCH_N, BENCH_CHATS, BENCH_CONCURRENCY, BENCH_BATCH, BENCH_DATABASE_SERVER, BENCH_REDIS_URL,
//                           BENCH_PHASES=classic,group, and group-commit.ts's own)
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';
import { dataSourceOptions } from '../../src/infra/database/data-source-options.js';
import { migrateDatabase } from '../../src/infra/database/migrator.js';
import type { LiveEventsService } from '../../src/modules/events/live-events.service.js';
import { ConversationRepository } from '../../src/modules/inbox/conversations/conversation.repository.js';
import { InboxEvents } from '../../src/modules/inbox/inbox-events.service.js';
import { BatchIngestRepository } from '../../src/modules/inbox/ingest/batch-ingest.repository.js';
import { ContactMergeRepository } from '../../src/modules/inbox/ingest/contact-merge.repository.js';
import { ContactMergeService } from '../../src/modules/inbox/ingest/contact-merge.service.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { IngestRepository } from '../../src/modules/inbox/ingest/ingest.repository.js';
import { runBaseline } from './baseline.js';
import { runGroupCommit } from './group-commit.js';
import { type CpuSample, sampleCpu } from './cpu.js';
import { buildDataset } from './dataset.js';
import { reportResult } from '../result.js';
import { type BenchLiveEvents, benchLiveEvents } from './live-events.js';
import { silentLiveEvents } from '../silent-live-events.js';

const N = Number(process.env.BENCH_N ?? 50_000);
const CHATS = Number(process.env.BENCH_CHATS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const BATCH = Number(process.env.BENCH_BATCH ?? 5_000);
const SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
// classic: the phases above (one database, ingest() without hooks, ingestBatch()); group: group commit with the outbox (group-commit.ts).
const PHASES = new Set((process.env.BENCH_PHASES ?? 'classic,group').split(',').map((p) => p.trim()));

interface Result {
  label: string;
  count: number;
  ms: number;
  cpu: CpuSample & { redis: number };
}

const urlOf = (name: string): string => {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
};
const rate = (count: number, ms: number): string => `${Math.round((count * 1000) / ms).toLocaleString('en-US')} msg/s`;
const pad = (text: string, width: number): string => text.padEnd(width);
const loads = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlOf('postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function run(db: DataSource, pool: pg.Pool, name: string, live: BenchLiveEvents): Promise<void> {
  const ingestWith = (publisher: LiveEventsService): InboxIngestService =>
    new InboxIngestService(
      db,
      new IngestRepository(),
      new BatchIngestRepository(),
      new ContactMergeService(new ContactMergeRepository()),
      new IngestHooks(),
      new InboxEvents(publisher, new ConversationRepository(db)),
    );
  // What production runs (events to Redis), and the database path alone.
  const ingest = ingestWith(live.service);
  const dbOnly = ingestWith(silentLiveEvents());
  const { messages, byChat } = buildDataset(N, CHATS);
  const workspace = async (): Promise<string> => (await db.query(`INSERT INTO workspaces (name) VALUES ('bench') RETURNING id`))[0].id as string;
  const reset = async (): Promise<void> => {
    // No ANALYZE here: each phase starts on empty, never-analysed tables, as a new install's
    // are, and the prepared plans its first statements make are kept until a table is analysed.
    // The service re-analyses the tables its live path outgrew (table-statistics.ts); autovacuum
    // would too, a minute later, where it is on (the header says whether it is).
    // CASCADE: other features' tables reference messages (scan_media_refs, automation_triggers).
    await db.query('TRUNCATE messages, conversations, contacts CASCADE');
  };
  const count = async (workspaceId: string): Promise<number> =>
    (await db.query('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1', [workspaceId]))[0].n as number;

  console.log(`ingest-db: ${N.toLocaleString('en-US')} messages over ${CHATS} chats; ingest() with ${CONCURRENCY} parallel callers; bulk batches of ${BATCH}`);
  const [{ autovacuum }]: { autovacuum: string }[] = await db.query(`SELECT current_setting('autovacuum') AS autovacuum`);
  console.log(`load average before: ${loads()} on ${cpus().length} cores; autovacuum ${autovacuum}`);

  const backends = new Map<number, number>();
  const results: Result[] = [];
  const measure = async (label: string, done: number, work: () => Promise<void>): Promise<Result> => {
    const before = { ...(await sampleCpu(db, name, backends)), redis: await live.cpuMs() };
    const started = performance.now();
    await work();
    const ms = performance.now() - started;
    const after = { ...(await sampleCpu(db, name, backends)), redis: await live.cpuMs() };
    const cpu = { node: after.node - before.node, postgres: after.postgres - before.postgres, redis: after.redis - before.redis };
    const result = { label, count: done, ms, cpu };
    results.push(result);
    return result;
  };

  // 1. Baseline.
  const ws1 = await workspace();
  const client = await pool.connect();
  const baseline = await measure('baseline: plain INSERT … VALUES, 1,000 rows', N, async () => {
    await runBaseline(client, ws1, messages);
  }).finally(() => client.release());
  if ((await count(ws1)) !== N) throw new Error('baseline stored a wrong number of rows');
  await reset();

  // 2. ingest(): each caller owns every CONCURRENCY-th chat and delivers its messages in order,
  // as one channel socket per workspace would. First as in production, then the database alone.
  const perChat = (service: InboxIngestService, workspaceId: string, limit: number) => async (): Promise<void> => {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        for (let chat = worker; chat < byChat.length; chat += CONCURRENCY) {
          for (const message of byChat[chat]!.slice(0, limit)) await service.ingest(workspaceId, message);
        }
      }),
    );
  };
  // Warm-up, not timed: JIT, the pooled connections and their prepared statements, for both
  // services alike, so neither run pays for starting first.
  await perChat(ingest, await workspace(), 5)();
  await perChat(dbOnly, await workspace(), 5)();
  await reset();

  const ws2 = await workspace();
  await live.listen(ws2);
  const single = await measure(`ingest(), ${CONCURRENCY} callers + live events`, N, perChat(ingest, ws2, N));
  if ((await count(ws2)) !== N) throw new Error('ingest() stored a wrong number of rows');
  // message.created + conversation.updated per new message, all published to Redis.
  await live.received(ws2, 2 * N);
  // Redelivery of stored messages must be a no-op; it is also the common case after a reconnect.
  const repeatsPerChat = Math.max(1, Math.floor(Math.min(N, 5000) / CHATS));
  await measure(`ingest() redeliveries (no-ops)`, repeatsPerChat * CHATS, perChat(ingest, ws2, repeatsPerChat));
  if ((await count(ws2)) !== N) throw new Error('repeated ingest() changed the row count');
  await reset();

  const wsDb = await workspace();
  const databaseOnly = await measure(`ingest(), ${CONCURRENCY} callers, DB only`, N, perChat(dbOnly, wsDb, N));
  if ((await count(wsDb)) !== N) throw new Error('ingest() (DB only) stored a wrong number of rows');
  await reset();

  // 3. ingestBatch().
  const ws3 = await workspace();
  let inserted = 0;
  const bulk = await measure(`ingestBatch(), ${BATCH} per call`, N, async () => {
    for (let start = 0; start < N; start += BATCH) inserted += (await ingest.ingestBatch(ws3, messages.slice(start, start + BATCH))).inserted;
  });
  if (inserted !== N || (await count(ws3)) !== N) throw new Error('ingestBatch() stored a wrong number of rows');
  const [aggregate] = await db.query(`SELECT sum(unread_count)::int AS unread, count(*)::int AS chats FROM conversations WHERE workspace_id = $1`, [ws3]);

  console.log('');
  console.log(`${pad('path', 46)}${pad('wall', 9)}${pad('rate', 16)}CPU per message: node + postgres + redis`);
  for (const r of results) {
    const us = (ms: number): string => `${Math.round((ms / r.count) * 1000)} µs`;
    console.log(
      `${pad(r.label, 46)}${pad(`${(r.ms / 1000).toFixed(2)} s`, 9)}${pad(rate(r.count, r.ms), 16)}` +
        `${us(r.cpu.node + r.cpu.postgres + r.cpu.redis)} = ${us(r.cpu.node)} + ${us(r.cpu.postgres)} + ${us(r.cpu.redis)}`,
    );
  }
  console.log('');
  const ofBaseline = (r: Result): string => `${((baseline.ms / r.ms) * 100).toFixed(1)} % of the baseline`;
  console.log(`ingest():                 ${rate(N, single.ms)} (target >= 2,000 msg/s), ${ofBaseline(single)}; with live events, as in production`);
  console.log(
    `ingest(), DB only:        ${rate(N, databaseOnly.ms)}, ${ofBaseline(databaseOnly)}; live events cost ${((single.ms / databaseOnly.ms - 1) * 100).toFixed(1)} % of its wall time`,
  );
  console.log(`ingestBatch() / baseline: ${((baseline.ms / bulk.ms) * 100).toFixed(1)} % (target >= 50 %)`);
  const perSecond = (r: Result): number => r.count / (r.ms / 1000);
  reportResult({
    figure: 'ingest: ingest() with live events (msg/s)',
    value: perSecond(single),
    baseline: perSecond(baseline),
    ratio: baseline.ms / single.ms,
    target: '>= 2000 msg/s',
    met: perSecond(single) >= 2000,
  });
  reportResult({
    figure: 'ingest: ingestBatch() (msg/s)',
    value: perSecond(bulk),
    baseline: perSecond(baseline),
    ratio: baseline.ms / bulk.ms,
    target: 'ratio >= 0.50 of plain INSERTs',
    met: baseline.ms / bulk.ms >= 0.5,
  });
  // The machine may be shared: CPU time per message does not depend on what else runs (Redis'
  // is server-wide, so other clients of the same Redis inflate it).
  const ceiling = (r: Result): string => rate(r.count, (r.cpu.node + r.cpu.postgres + r.cpu.redis) / cpus().length);
  console.log(
    `CPU-bound ceiling on ${cpus().length} idle cores: ingest() ${ceiling(single)}, DB only ${ceiling(databaseOnly)}, bulk ${ceiling(bulk)}, baseline ${ceiling(baseline)}`,
  );
  console.log(`bulk check: ${aggregate.chats} conversations, ${aggregate.unread} unread (inbound) messages`);
  const tables: { relname: string; seq_scan: number; seq_tup_read: number; idx_scan: number; n_dead_tup: number }[] = await db.query(
    `SELECT relname, seq_scan::int, seq_tup_read::int, idx_scan::int, n_dead_tup::int FROM pg_stat_user_tables
      WHERE relname IN ('messages', 'conversations', 'contacts') ORDER BY relname`,
  );
  console.log(
    `table scans over the run: ${tables.map((t) => `${t.relname} seq ${t.seq_scan} (${t.seq_tup_read} rows) idx ${t.idx_scan}, dead ${t.n_dead_tup}`).join('; ')}`,
  );
  console.log(`load average after: ${loads()}`);
}

async function main(): Promise<void> {
  const name = `inbox_bench_${randomBytes(4).toString('hex')}`;
  const url = urlOf(name);
  await migrateDatabase(url); // creates the scratch database too
  const db = new DataSource(dataSourceOptions(url, ENTITIES, { extra: { max: CONCURRENCY + 2 } }));
  await db.initialize();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const live = await benchLiveEvents(url, REDIS_URL);
  try {
    if (PHASES.has('classic')) await run(db, pool, name, live);
  } finally {
    await live.close();
    await pool.end();
    await db.destroy();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

async function all(): Promise<void> {
  await main();
  if (PHASES.has('group')) await runGroupCommit(SERVER, REDIS_URL);
}

all().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
