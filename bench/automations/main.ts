// bench/automations: what automations cost where it matters.
// 1. The ingest path: ingest() with the automation hook registered, for a workspace without
//    automations (the hook asks a 2-second cache and stays out: no transaction) and for one with an
//    enabled automation (a transaction and a trigger row per inbound message), next to ingest()
//    without hooks as the baseline, all in one run on a scratch database (DB only: no live
//    events, no queue).
// 2. A `matches` condition through the regex sandbox (worker thread, time limit) next to the same
//    pattern run inline, the baseline.
//   npm run bench:automations   (env: BENCH_N, BENCH_CHATS, BENCH_CONCURRENCY, BENCH_DATABASE_SERVER)
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';
import type { AppConfig } from '../../src/infra/config/app-config.js';
import { dataSourceOptions } from '../../src/infra/database/data-source-options.js';
import { migrateDatabase } from '../../src/infra/database/migrator.js';
import { AutomatedWorkspaces } from '../../src/modules/content/automations/automated-workspaces.js';
import { AutomationIngestHook } from '../../src/modules/content/automations/automation-ingest.hook.js';
import type { AutomationQueue } from '../../src/modules/content/automations/automation-queue.js';
import { AutomationTriggerRepository } from '../../src/modules/content/automations/automation-trigger.repository.js';
import { RegexSandbox } from '../../src/modules/content/automations/regex-sandbox.js';
import { ConversationRepository } from '../../src/modules/inbox/conversations/conversation.repository.js';
import { InboxEvents } from '../../src/modules/inbox/inbox-events.service.js';
import { BatchIngestRepository } from '../../src/modules/inbox/ingest/batch-ingest.repository.js';
import { ContactMergeRepository } from '../../src/modules/inbox/ingest/contact-merge.repository.js';
import { ContactMergeService } from '../../src/modules/inbox/ingest/contact-merge.service.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { IngestHooks } from '../../src/modules/inbox/ingest/ingest-hooks.js';
import { IngestRepository } from '../../src/modules/inbox/ingest/ingest.repository.js';
import { reportResult } from '../result.js';
import { buildDataset } from '../ingest-db/dataset.js';
import { silentLiveEvents } from '../silent-live-events.js';

const N = Number(process.env.BENCH_N ?? 20_000);
const CHATS = Number(process.env.BENCH_CHATS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MATCHES = 2_000;

const urlOf = (name: string): string => {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
};
const rate = (count: number, ms: number): string => `${Math.round((count * 1000) / ms).toLocaleString('en-US')} msg/s`;

async function ingestPath(db: DataSource): Promise<void> {
  const events = new InboxEvents(silentLiveEvents(), new ConversationRepository(db));
  const service = (hooks: IngestHooks): InboxIngestService =>
    new InboxIngestService(db, new IngestRepository(), new BatchIngestRepository(), new ContactMergeService(new ContactMergeRepository()), hooks, events);
  const plain = service(new IngestHooks());
  const hooked = new IngestHooks();
  let enqueued = 0;
  const queue = { enqueue: async () => void enqueued++ } as unknown as AutomationQueue;
  new AutomationIngestHook(hooked, new AutomationTriggerRepository(db), queue, new AutomatedWorkspaces(db)).onModuleInit();
  const withHook = service(hooked);

  const { byChat } = buildDataset(N, CHATS);
  const workspace = async (): Promise<string> => (await db.query(`INSERT INTO workspaces (name) VALUES ('bench') RETURNING id`))[0].id as string;
  const run = async (ingest: InboxIngestService, workspaceId: string, limit = N): Promise<number> => {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        for (let chat = worker; chat < byChat.length; chat += CONCURRENCY) {
          for (const message of byChat[chat]!.slice(0, limit)) await ingest.ingest(workspaceId, message);
        }
      }),
    );
    return performance.now() - started;
  };
  const reset = (): Promise<unknown> => db.query('TRUNCATE messages, conversations, contacts CASCADE');
  // Warm-up (JIT, pooled connections, prepared statements), not timed.
  await run(plain, await workspace(), 5);
  await run(withHook, await workspace(), 5);
  await reset();

  const baseline = await run(plain, await workspace());
  await reset();
  const quiet = await run(withHook, await workspace());
  await reset();
  const busy = await workspace();
  await db.query(`INSERT INTO automations (workspace_id, name, trigger, actions) VALUES ($1, 'bench', 'message.inbound', '[{"type":"mark_read"}]')`, [busy]);
  enqueued = 0;
  const active = await run(withHook, busy);
  const [{ n: rows }] = await db.query('SELECT count(*)::int AS n FROM automation_triggers WHERE workspace_id = $1', [busy]);
  await reset();

  const wall = (ms: number): string => `wall time ${ms >= baseline ? '+' : ''}${((ms / baseline - 1) * 100).toFixed(1)} % against the baseline`;
  console.log(`ingest(), ${N.toLocaleString('en-US')} messages over ${CHATS} chats, ${CONCURRENCY} callers, DB only:`);
  console.log(`  baseline, no hooks:                             ${rate(N, baseline)}`);
  console.log(`  automation hook, workspace without automations: ${rate(N, quiet)} (${wall(quiet)})`);
  console.log(
    `  automation hook, an enabled automation:         ${rate(N, active)} (${wall(active)}; ` +
      `${rows} trigger rows, ${enqueued} jobs for ${N - Math.floor(N / 4)} inbound messages)`,
  );
}

async function sandboxPath(): Promise<void> {
  const sandbox = new RegexSandbox({ automationRegexTimeoutMs: 250 } as AppConfig);
  const pattern = '\\b(refund|money back|return)s?\\b';
  const text = 'Hello, I ordered the blue one last week and would like to know how the money back process works for me.';
  const inline = new RegExp(pattern, 'i');
  let matched = 0;
  let started = performance.now();
  for (let i = 0; i < MATCHES; i++) if (inline.test(`${text} ${i}`)) matched++;
  const inlineMs = performance.now() - started;
  await sandbox.test(pattern, text); // starts the thread
  started = performance.now();
  for (let i = 0; i < MATCHES; i++) if ((await sandbox.test(pattern, `${text} ${i}`)) === true) matched++;
  const sandboxMs = performance.now() - started;
  started = performance.now();
  const evil = await sandbox.test('^(a+)+$', `${'a'.repeat(40)}!`);
  const evilMs = performance.now() - started;
  await sandbox.onModuleDestroy();
  if (matched !== 2 * MATCHES) throw new Error('the sandbox answered differently from the inline pattern');
  console.log(`matches condition, ${MATCHES.toLocaleString('en-US')} tests of a keyword pattern on a 100-character message:`);
  console.log(`  baseline, inline RegExp:  ${((inlineMs * 1000) / MATCHES).toFixed(1)} µs per test`);
  console.log(`  regex sandbox (thread):   ${((sandboxMs * 1000) / MATCHES).toFixed(1)} µs per test`);
  console.log(`  catastrophic ^(a+)+$ on 40 a's and '!': ${evil} after ${evilMs.toFixed(0)} ms (limit 250 ms), then a fresh thread`);
  reportResult({
    figure: 'automations: matches condition in the regex sandbox (µs/test)',
    value: (sandboxMs * 1000) / MATCHES,
    baseline: (inlineMs * 1000) / MATCHES,
    ratio: sandboxMs / inlineMs,
    target: 'informational (inline RegExp is the baseline)',
  });
}

async function main(): Promise<void> {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${cpus().length} cores`,
  );
  const name = `content_bench_${randomBytes(4).toString('hex')}`;
  await migrateDatabase(urlOf(name));
  const db = new DataSource(dataSourceOptions(urlOf(name), ENTITIES, { extra: { max: CONCURRENCY + 2 } }));
  await db.initialize();
  try {
    await ingestPath(db);
    await sandboxPath();
  } finally {
    await db.destroy();
    const admin = new pg.Client({ connectionString: urlOf('postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`).finally(() => admin.end());
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
