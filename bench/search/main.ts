// bench/search: GET /api/search's work (SearchService.find: the lexemes, the ranked queries of
// messages, notes and contacts, the snippets) over a workspace of 1,000,000 messages, for queries
// of known selectivity, next to a plain index scan of the same tsquery (the newest 21 matches
// through the GIN index, a bitmap scan: no ranking, no window, no visibility, no snippets, in a
// transaction of its own like the route's), alternating, in the same run.
//   npm run bench:search   (env: BENCH_SEARCH_MESSAGES, BENCH_SEARCH_CHATS, BENCH_SEARCH_ROUNDS, BENCH_DATABASE_SERVER)
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';
import { dataSourceOptions } from '../../src/infra/database/data-source-options.js';
import { migrateDatabase } from '../../src/infra/database/migrator.js';
import type { WorkspaceActor } from '../../src/modules/auth/auth.types.js';
import { messageSearchVector, SearchRepository } from '../../src/modules/inbox/search/search.repository.js';
import { SearchService } from '../../src/modules/inbox/search/search.service.js';
import { percentile } from '../percentile.js';
import { reportResult } from '../result.js';
import { buildSearchDataset } from './dataset.js';

const N = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const CHATS = Number(process.env.BENCH_SEARCH_CHATS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 30);
const SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_MS = 100;
// BENCH_SEARCH_ROUNDS=0 with BENCH_SEARCH_KEEP=1: only build the workspace.

const urlOf = (name: string): string => {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
};
const loads = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ms = (n: number): string => `${n.toFixed(1)} ms`;

interface Query {
  label: string;
  /** The text typed; a function for queries that change per round (a different message each time). */
  q: (round: number) => string;
  type?: string;
  agent?: boolean;
}

// Expected matches out of N (dataset.ts): P(a given common word) = 1 - (19/20)^3 ≈ 14 %.
const QUERIES: Query[] = [
  { label: "one message's number (1 match)", q: (round) => String(((round + 1) * 7919 * 31) % N) },
  { label: 'product code (0.1 %)', q: () => 'product0421' },
  { label: 'medium word (1 %)', q: () => 'warehouse' },
  { label: 'prefix as typed, product042… (1 %)', q: () => 'product042' },
  { label: 'two common words (2 %)', q: () => 'delivery refund' },
  { label: 'common word (14 %)', q: () => 'hello' },
  { label: 'agent, medium word (1 %, 3/4 visible)', q: () => 'courierpack', agent: true },
];

async function main(): Promise<void> {
  const name = `search_bench_${randomBytes(4).toString('hex')}`;
  const url = urlOf(name);
  await migrateDatabase(url);
  const db = new DataSource(dataSourceOptions(url, ENTITIES, { extra: { max: 6 } }));
  await db.initialize();
  try {
    console.log(`search: ${N.toLocaleString('en-US')} messages over ${CHATS.toLocaleString('en-US')} chats, ${ROUNDS} rounds of ${QUERIES.length} queries`);
    const t0 = performance.now();
    const data = await buildSearchDataset(db, N, CHATS, (line) => console.log(line));
    console.log(`set-up (insert, index, VACUUM ANALYZE): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const [size] = (await db.query(
      `SELECT pg_size_pretty(pg_relation_size('messages_search_idx')) AS idx, pg_size_pretty(pg_relation_size('messages')) AS heap`,
    )) as {
      idx: string;
      heap: string;
    }[];
    console.log(`messages heap ${size!.heap}, messages_search_idx ${size!.idx}`);
    console.log(`load average before: ${loads()} on ${cpus().length} cores`);

    const repository = new SearchRepository(db);
    const service = new SearchService(repository);
    const actor = (agent: boolean): WorkspaceActor => ({
      workspaceId: data.workspaceId,
      via: 'session',
      role: agent ? 'agent' : 'owner',
      userId: agent ? '00000000-0000-4000-8000-000000000001' : data.agentId,
      apiKeyId: null,
      subscriptionStatus: 'active',
      seesAllConversations: !agent,
    });
    // The baseline: the same tsquery through the same index, the newest 21 matches, nothing else.
    const vector = messageSearchVector('m');
    const baseline = async (q: string): Promise<number> => {
      const { lexemes } = await repository.lexemes(q);
      const tsquery = lexemes.map((l, i) => `'${l.replace(/'/g, "''")}'${i === lexemes.length - 1 && l.length >= 3 ? ':*' : ''}`).join(' & ');
      // Through the GIN index (bitmap), not the time index the planner would walk for "newest".
      return db.transaction(async (manager) => {
        await manager.query('SET LOCAL enable_indexscan = off');
        const rows = (await manager.query(
          `SELECT m.id FROM messages m WHERE m.workspace_id = $1 AND ${vector} @@ $2::tsquery ORDER BY m.timestamp DESC LIMIT 21`,
          [data.workspaceId, tsquery],
        )) as unknown[];
        return rows.length;
      });
    };

    const timed = async (work: () => Promise<unknown>): Promise<number> => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const routeTimes: number[] = [];
    const baseTimes: number[] = [];
    const perQuery = QUERIES.map(() => ({ route: [] as number[], base: [] as number[], results: 0 }));
    // Untimed warm-up: every query once each way (plans, caches).
    for (const query of QUERIES) {
      await service.find(actor(query.agent ?? false), query.q(0), query.type, undefined, undefined);
      await baseline(query.q(0));
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, query] of QUERIES.entries()) {
        const q = query.q(round);
        // Alternate which goes first, so neither always finds the cache the other warmed.
        const runRoute = async (): Promise<void> => {
          let results = 0;
          const took = await timed(
            async () => (results = (await service.find(actor(query.agent ?? false), q, query.type, undefined, undefined)).results.length),
          );
          routeTimes.push(took);
          perQuery[i]!.route.push(took);
          perQuery[i]!.results = results;
        };
        const runBase = async (): Promise<void> => {
          const took = await timed(() => baseline(q));
          baseTimes.push(took);
          perQuery[i]!.base.push(took);
        };
        if (round % 2 === 0) {
          await runRoute();
          await runBase();
        } else {
          await runBase();
          await runRoute();
        }
      }
    }
    // The second page of the broadest query, through its cursor.
    const first = await service.find(actor(false), 'hello', undefined, undefined, undefined);
    const pageTwo: number[] = [];
    for (let round = 0; round < Math.min(ROUNDS, 10); round++)
      pageTwo.push(await timed(() => service.find(actor(false), 'hello', undefined, undefined, first.next_cursor ?? undefined)));

    const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);
    console.log(`\n${'query'.padEnd(44)} ${'route p50'.padStart(10)} ${'p95'.padStart(9)} ${'baseline p50'.padStart(13)} ${'p95'.padStart(9)}`);
    for (const [i, query] of QUERIES.entries()) {
      const r = sorted(perQuery[i]!.route);
      const b = sorted(perQuery[i]!.base);
      console.log(
        `${query.label.padEnd(44)} ${ms(percentile(r, 50)).padStart(10)} ${ms(percentile(r, 95)).padStart(9)} ${ms(percentile(b, 50)).padStart(13)} ${ms(percentile(b, 95)).padStart(9)}`,
      );
    }
    const route = sorted(routeTimes);
    const base = sorted(baseTimes);
    const two = sorted(pageTwo);
    console.log(`\nall ${route.length} searches: p50 ${ms(percentile(route, 50))}, p95 ${ms(percentile(route, 95))}, p99 ${ms(percentile(route, 99))}`);
    console.log(`baseline:         p50 ${ms(percentile(base, 50))}, p95 ${ms(percentile(base, 95))}, p99 ${ms(percentile(base, 99))}`);
    console.log(`page 2 of "hello": p50 ${ms(percentile(two, 50))}`);
    console.log(`load average after: ${loads()}`);

    for (const p of [50, 95, 99]) {
      const value = percentile(route, p);
      const against = percentile(base, p);
      reportResult({
        figure: `search: GET /api/search p${p} over ${QUERIES.length} queries, ${(N / 1e6).toLocaleString('en-US')}M messages (ms; baseline: plain GIN index scan, newest 21)`,
        value,
        baseline: against,
        ratio: value / against,
        target: p === 95 ? `< ${TARGET_MS} ms` : 'informational',
        ...(p === 95 ? { met: value < TARGET_MS } : {}),
      });
    }
    for (const [i, query] of QUERIES.entries()) {
      const value = percentile(sorted(perQuery[i]!.route), 50);
      const against = percentile(sorted(perQuery[i]!.base), 50);
      reportResult({ figure: `search: p50, ${query.label} (ms)`, value, baseline: against, ratio: value / against, target: 'informational' });
    }
  } finally {
    await db.destroy();
    // BENCH_SEARCH_KEEP=1 leaves the database for EXPLAIN sessions (its name is printed).
    if (process.env.BENCH_SEARCH_KEEP === '1') console.log(`kept database ${name}`);
    else {
      const admin = new DataSource(dataSourceOptions(urlOf('postgres'), [], { extra: { max: 1 } }));
      await admin.initialize();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.destroy();
    }
  }
}

await main();
