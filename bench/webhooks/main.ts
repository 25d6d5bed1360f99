// bench/webhooks: inbound messages through ingest() to workspaces with one webhook each, delivered
// by the service's own workers to a receiver in a child process, on a scratch database.
//   1. ingest() alone (hooks off: the path without an outbox) next to ingest() writing the outbox
//      row and waking its endpoint's drain (deliveries paused): what the outbox costs the ingest path;
//   2. end to end at full speed: N messages, throughput and latency from the ingest call to the
//      receipt; then paced at 500 messages/s: latency p50/p99;
//   3. drain: DRAIN_N outbox rows written beforehand, through the delivery workers, next to a
//      baseline in the same run that only signs and POSTs the same bodies with the same client.
//   npm run bench:webhooks   (env: BENCH_N, BENCH_PACED_N, BENCH_RATE, BENCH_DRAIN_N, BENCH_DRAIN_WARMUP, BENCH_CONCURRENCY, BENCH_WORKSPACES)
import 'reflect-metadata';
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/infra/config/app-config.js';
import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';
import { InboxIngestService } from '../../src/modules/inbox/ingest/inbox-ingest.service.js';
import { WebhookDeliveryProcessor } from '../../src/modules/webhooks/delivery/webhook-delivery.processor.js';
import { WebhookOutbox } from '../../src/modules/webhooks/outbox/webhook-outbox.service.js';
import { WebhookSecretService } from '../../src/modules/webhooks/secret/webhook-secret.service.js';
import { baselineDrain } from './baseline.js';
import { sampleCpu } from './cpu.js';
import { percentile } from '../percentile.js';
import { reportResult } from '../result.js';
import type { Arrival } from './receiver.js';

const N = Number(process.env.BENCH_N ?? 20_000);
const PACED_N = Number(process.env.BENCH_PACED_N ?? 5_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const DRAIN_N = Number(process.env.BENCH_DRAIN_N ?? 20_000);
// Outbox rows drained (and POSTed by the baseline) before the drain phase's measured runs.
const DRAIN_WARMUP = Number(process.env.BENCH_DRAIN_WARMUP ?? 2_000);
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 50);
// One caller per workspace by default: each number's socket hands its messages to ingest() in
// turn, and all of them at once (a burst: offline queues flushed after a restart).
const CALLERS = Number(process.env.BENCH_CONCURRENCY ?? WORKSPACES);
const CHATS_PER_WORKSPACE = 4;
const DELIVERY_CONCURRENCY = Number(process.env.BENCH_DELIVERY_CONCURRENCY ?? 50);
const SERVER = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432';
// Which parts run (comma-separated): ingest, e2e, drain.
const PHASES = new Set((process.env.BENCH_PHASES ?? 'ingest,e2e,drain').split(',').map((p) => p.trim()));

const fmt = (value: number): string => Math.round(value).toLocaleString('en-US');
const loads = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The receiver child: its port, and a promise per awaited key. */
class ReceiverProcess {
  private readonly arrivals = new Map<string, number>();
  private waiting: { count: number; done: () => void } | null = null;
  port = 0;
  count = 0;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: { type: string; arrivals?: Arrival[] }) => {
      if (message.type !== 'arrivals') return;
      for (const { key, at } of message.arrivals!) if (!this.arrivals.has(key)) this.arrivals.set(key, at);
      this.count += message.arrivals!.length;
      if (this.waiting && this.count >= this.waiting.count) this.waiting.done();
    });
  }

  static async start(): Promise<ReceiverProcess> {
    const child = fork(resolve(import.meta.dirname, 'receiver.js'), { stdio: 'inherit' });
    const receiver = new ReceiverProcess(child);
    receiver.port = await new Promise<number>((done) => child.on('message', (m: { type: string; port?: number }) => m.type === 'ready' && done(m.port!)));
    return receiver;
  }

  /** Until `count` requests in all have arrived (since the start). */
  until(count: number): Promise<void> {
    if (this.count >= count) return Promise.resolve();
    return new Promise((done) => (this.waiting = { count, done }));
  }

  arrivalOf(key: string): number | undefined {
    return this.arrivals.get(key);
  }

  stop(): void {
    this.child.kill();
  }
}

interface Workspace {
  id: string;
  phones: string[];
}

let sequence = 0;
/** `count` inbound texts over the workspaces' chats, round-robin; each chat's messages in order. */
function messages(workspaces: Workspace[], count: number): { workspaceId: string; message: InboundMessage }[] {
  const list: { workspaceId: string; message: InboundMessage }[] = [];
  for (let i = 0; i < count; i++) {
    const workspace = workspaces[i % workspaces.length]!;
    const phone = workspace.phones[Math.floor(i / workspaces.length) % CHATS_PER_WORKSPACE]!;
    const n = sequence++;
    list.push({
      workspaceId: workspace.id,
      message: {
        channel: 'scan',
        externalId: `3EB0${n.toString(16).toUpperCase().padStart(16, '0')}`,
        chatJid: `${phone}@s.whatsapp.net`,
        senderJid: `${phone}@s.whatsapp.net`,
        senderName: `Contact ${phone.slice(-4)}`,
        contact: { phone, name: `Contact ${phone.slice(-4)}` },
        content: `Message ${n}: ${'lorem ipsum dolor sit amet '.repeat(1 + (n % 4))}`.trim(),
        timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000),
      },
    });
  }
  return list;
}

/** Runs the messages through ingest() with CALLERS parallel callers, each owning whole workspaces (as one socket per workspace). */
async function ingestAll(
  ingest: InboxIngestService,
  list: { workspaceId: string; message: InboundMessage }[],
  options: { hooks: boolean },
  started?: Map<string, number>,
): Promise<number> {
  const owners = new Map<string, number>();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, caller) => {
      for (const { workspaceId, message } of list) {
        if (!owners.has(workspaceId)) owners.set(workspaceId, owners.size % CALLERS);
        if (owners.get(workspaceId) !== caller) continue;
        started?.set(message.externalId, Date.now());
        await ingest.ingest(workspaceId, message, options);
      }
    }),
  );
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const database = `bench_webhooks_${randomBytes(4).toString('hex')}`;
  const receiver = await ReceiverProcess.start();
  const config = loadConfig({
    NODE_ENV: 'test',
    ROLE: 'all',
    DATABASE_URL: `${SERVER}/${database}`,
    REDIS_PREFIX: `bench:webhooks:${database}`,
    LOG_LEVEL: 'warn',
    ALLOW_HTTP_WEBHOOKS: 'true',
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    WEBHOOK_CONCURRENCY: String(DELIVERY_CONCURRENCY),
    ...(process.env.BENCH_ENDPOINT_CONCURRENCY ? { WEBHOOK_ENDPOINT_CONCURRENCY: process.env.BENCH_ENDPOINT_CONCURRENCY } : {}),
  });
  const app: INestApplicationContext = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: false });
  try {
    await run(app, receiver);
  } finally {
    await app.close();
    receiver.stop();
    const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
}

interface Measured {
  ms: number;
  /** CPU time of this process and of the bench database's Postgres backends (the receiver's is its own). */
  cpuMs: number;
  postgresMs: number;
  vacuumMs: number;
}

const backends = new Map<number, { ms: number; vacuum: boolean }>();

/** Wall time and CPU time of `work`: the machine is shared, so CPU per item is the steadier figure. */
async function measured(db: DataSource, work: () => Promise<void>): Promise<Measured> {
  const name = (db.options as { url?: string }).url!.split('/').pop()!;
  const before = await sampleCpu(db, name, backends);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const after = await sampleCpu(db, name, backends);
  return { ms, cpuMs: after.node - before.node, postgresMs: after.postgres - before.postgres, vacuumMs: after.vacuum - before.vacuum };
}

async function run(app: INestApplicationContext, receiver: ReceiverProcess): Promise<void> {
  const db = app.get<DataSource>(getDataSourceToken());
  const ingest = app.get(InboxIngestService);
  const worker = app.get(WebhookDeliveryProcessor).worker;
  const url = `http://127.0.0.1:${receiver.port}/hook`;
  const report: string[] = [];
  let expected = 0;
  const rate = (count: number, ms: number): string => `${fmt((count * 1000) / ms)}/s`;
  const us = (ms: number, count: number): string => `${((ms * 1000) / count).toFixed(0)} µs`;
  const perItem = (m: Measured, count: number): string =>
    `CPU each: node ${us(m.cpuMs, count)} + postgres ${us(m.postgresMs, count)}${m.vacuumMs > 0 ? ` (+ autovacuum ${us(m.vacuumMs, count)})` : ''}`;

  const workspaces = async (count: number, withWebhook: boolean): Promise<Workspace[]> => {
    const list: Workspace[] = [];
    for (let i = 0; i < count; i++) {
      const [{ id }] = (await db.query(`INSERT INTO workspaces (name) VALUES ('bench') RETURNING id`)) as { id: string }[];
      if (withWebhook) {
        await app.get(WebhookSecretService).current(id!);
        await db.query(`INSERT INTO webhooks (workspace_id, url, events) VALUES ($1, $2, '{scan.chat}')`, [id, url]);
      }
      list.push({ id: id!, phones: Array.from({ length: CHATS_PER_WORKSPACE }, () => `4915${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`) });
    }
    return list;
  };

  console.log(
    `webhooks bench: ${WORKSPACES} workspaces with one webhook each, ${CHATS_PER_WORKSPACE} chats each; ingest() with ${CALLERS} parallel callers; ${DELIVERY_CONCURRENCY} delivery slots`,
  );
  console.log(`load average before: ${loads()} on ${cpus().length} cores`);

  // Warm-up (not timed): JIT, pooled connections, prepared statements, the HTTP keep-alive pool.
  const warm = await workspaces(WORKSPACES, true);
  await ingestAll(ingest, messages(warm, 1000), { hooks: false });
  const warmList = messages(warm, 1000);
  await ingestAll(ingest, warmList, { hooks: true });
  expected += warmList.length;
  await receiver.until(expected);

  if (PHASES.has('ingest')) {
    // What the outbox costs ingest(): the same messages without hooks (the path without an
    // outbox), and with the outbox row and its job (deliveries paused: only ingest is timed).
    const plainWorkspaces = await workspaces(WORKSPACES, false);
    const plain = await measured(db, async () => void (await ingestAll(ingest, messages(plainWorkspaces, N), { hooks: false })));
    const bare = await measured(db, async () => void (await ingestAll(ingest, messages(await workspaces(WORKSPACES, false), N), { hooks: true })));
    report.push(`ingest() + hooks, no webhook:          ${rate(N, bare.ms)} messages, ${perItem(bare, N)}`);
    await worker.pause(true);
    const outboxList = messages(await workspaces(WORKSPACES, true), N);
    const withOutbox = await measured(db, async () => void (await ingestAll(ingest, outboxList, { hooks: true })));
    await worker.resume();
    expected += outboxList.length;
    await receiver.until(expected);
    report.push(`ingest() alone (hooks off):            ${rate(N, plain.ms)} messages, ${perItem(plain, N)}`);
    report.push(
      `ingest() + outbox row + job queued:    ${rate(N, withOutbox.ms)} messages, ${perItem(withOutbox, N)} (${((plain.ms / withOutbox.ms) * 100).toFixed(1)} % of ingest() alone)`,
    );
  }

  if (PHASES.has('e2e')) {
    const e2eWorkspaces = await workspaces(WORKSPACES, true);
    const started = new Map<string, number>();
    const latencies = (list: { message: InboundMessage }[]): number[] =>
      list.map(({ message }) => receiver.arrivalOf(message.externalId)! - started.get(message.externalId)!).sort((a, b) => a - b);
    const e2eList = messages(e2eWorkspaces, N);
    const e2eStart = Date.now();
    const e2e = await measured(db, async () => {
      await ingestAll(ingest, e2eList, { hooks: true }, started);
      expected += e2eList.length;
      await receiver.until(expected);
    });
    const e2eLatency = latencies(e2eList);
    const e2eEnd = Math.max(...e2eList.map(({ message }) => receiver.arrivalOf(message.externalId)!));

    const pacedList = messages(e2eWorkspaces, PACED_N);
    await paced(ingest, pacedList, started);
    expected += pacedList.length;
    await receiver.until(expected);
    const pacedLatency = latencies(pacedList);
    const line = (label: string, sorted: number[]): string =>
      `${label} p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms, max ${fmt(sorted.at(-1)!)} ms`;
    report.push(
      `end to end, ${fmt(N)} messages:          ${rate(N, e2eEnd - e2eStart)} messages ingested and received, ${perItem(e2e, N)} (target >= 1,500/s)`,
    );
    report.push(line('  latency ingest call -> receipt:      ', e2eLatency) + ' (ingest as fast as it goes)');
    report.push(line(`  paced at ${RATE}/s, ${fmt(PACED_N)} messages:  `, pacedLatency) + ' (target p99 < 250 ms)');
    const e2eRate = N / ((e2eEnd - e2eStart) / 1000);
    reportResult({
      figure: 'webhooks: end to end, ingested and received (msg/s)',
      value: e2eRate,
      baseline: null,
      ratio: null,
      target: '>= 1500/s',
      met: e2eRate >= 1500,
    });
    const p99 = percentile(pacedLatency, 99);
    reportResult({ figure: `webhooks: paced at ${RATE}/s, latency p99 (ms)`, value: p99, baseline: null, ratio: null, target: '< 250 ms', met: p99 < 250 });
  }

  if (PHASES.has('drain')) {
    // Rows written beforehand (one event and one delivery each, spread over the webhooks), a drain
    // job per endpoint queued (what the outbox queues after a commit), then delivered by the
    // workers; the baseline signs and POSTs the same bodies.
    await worker.pause(true);
    const outbox = app.get(WebhookOutbox);
    const queueDrains = async (rows: { workspaceId: string; webhookId: string }[]): Promise<void> => {
      const endpoints = new Map(rows.map((delivery) => [delivery.webhookId, { workspaceId: delivery.workspaceId, webhookId: delivery.webhookId }]));
      await outbox.drain([...endpoints.values()]);
    };
    const drainWorkspaces = await workspaces(WORKSPACES, true);
    if (DRAIN_WARMUP > 0) {
      // Both sides warmed up, unmeasured: otherwise whichever runs first (the workers) pays for
      // compiling the code both share (HTTP client, signing) and the other measures it warm.
      const warm = await writeOutboxRows(db, drainWorkspaces, DRAIN_WARMUP);
      await queueDrains(warm);
      await worker.resume();
      await receiver.until((expected += warm.length));
      await worker.pause(true);
      const warmSecrets = await app.get(WebhookSecretService).signing(warm[0]!.workspaceId);
      await baselineDrain(url, warm, warmSecrets, DELIVERY_CONCURRENCY, { timeoutMs: 10_000, allowPrivate: true });
      await receiver.until((expected += warm.length));
    }
    const deliveries = await writeOutboxRows(db, drainWorkspaces, DRAIN_N);
    await queueDrains(deliveries);
    const drain = await measured(db, async () => {
      await worker.resume();
      expected += deliveries.length;
      await receiver.until(expected);
    });
    const secrets = await app.get(WebhookSecretService).signing(deliveries[0]!.workspaceId);
    const baseline = await measured(db, async () => {
      await baselineDrain(url, deliveries, secrets, DELIVERY_CONCURRENCY, { timeoutMs: 10_000, allowPrivate: true });
      expected += deliveries.length;
      await receiver.until(expected);
    });
    report.push(`drain ${fmt(DRAIN_N)} outbox rows (workers):   ${rate(deliveries.length, drain.ms)} deliveries, ${perItem(drain, deliveries.length)}`);
    const drainRatio = baseline.ms / drain.ms;
    reportResult({
      figure: 'webhooks: drain outbox rows (deliveries/s)',
      value: deliveries.length / (drain.ms / 1000),
      baseline: deliveries.length / (baseline.ms / 1000),
      ratio: drainRatio,
      target: 'ratio >= 0.50 of a bare sign + POST',
      met: drainRatio >= 0.5,
    });
    report.push(
      `  baseline: sign + POST, same client:  ${rate(deliveries.length, baseline.ms)} deliveries, ${perItem(baseline, deliveries.length)}; workers at ${((baseline.ms / drain.ms) * 100).toFixed(1)} % of the baseline (target >= 50 %)`,
    );
  }

  const [{ delivered }] = (await db.query(`SELECT count(*)::int AS delivered FROM webhook_deliveries WHERE status = 'delivered'`)) as { delivered: number }[];
  console.log('');
  for (const line of report) console.log(line);
  console.log(`check: ${fmt(delivered)} deliveries recorded delivered; ${fmt(receiver.count)} requests received (the baseline's are not recorded)`);
  console.log(`load average after: ${loads()}`);
}

/** Ingest calls started at RATE per second, whatever the previous ones are doing; latency counts from the scheduled start. */
async function paced(ingest: InboxIngestService, list: { workspaceId: string; message: InboundMessage }[], started: Map<string, number>): Promise<void> {
  const start = Date.now();
  const calls: Promise<unknown>[] = [];
  for (let next = 0; next < list.length;) {
    const due = Math.min(list.length, Math.floor(((Date.now() - start) * RATE) / 1000) + 1);
    for (; next < due; next++) {
      const { workspaceId, message } = list[next]!;
      started.set(message.externalId, start + (next * 1000) / RATE);
      calls.push(ingest.ingest(workspaceId, message));
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(calls);
}

/**
 * `count` events and their deliveries (one per webhook of the event's workspace), written straight
 * into the outbox; returned (and so queued) in the order of the messages, as ingest queues them.
 */
async function writeOutboxRows(
  db: DataSource,
  workspaces: Workspace[],
  count: number,
): Promise<{ id: string; workspaceId: string; webhookId: string; body: Buffer }[]> {
  const rows: { id: string; workspaceId: string; webhookId: string; body: Buffer }[] = [];
  for (let start = 0; start < count; start += 1000) {
    const chunk = messages(workspaces, Math.min(1000, count - start)).map(({ workspaceId, message }) => ({
      workspaceId,
      key: message.externalId,
      body: Buffer.from(
        JSON.stringify({ event: 'message.inbound', channel: 'scan', workspace_id: workspaceId, chat_message_id: message.externalId, content: message.content }),
      ),
    }));
    rows.push(
      ...((await db.query(
        `WITH input AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::bytea[]) WITH ORDINALITY AS i(workspace_id, key, body, n)),
              e AS (INSERT INTO webhook_events (workspace_id, event, source_key, body) SELECT workspace_id, 'scan.chat', key, body FROM input RETURNING id, workspace_id, source_key, body),
              d AS (INSERT INTO webhook_deliveries (workspace_id, webhook_id, event_id, status)
                    SELECT e.workspace_id, w.id, e.id, 'pending' FROM e JOIN webhooks w ON w.workspace_id = e.workspace_id
                    RETURNING id, workspace_id, webhook_id, event_id)
         SELECT d.id, d.workspace_id AS "workspaceId", d.webhook_id AS "webhookId", e.body FROM d JOIN e ON e.id = d.event_id
           JOIN input ON input.key = e.source_key ORDER BY input.n`,
        [chunk.map((c) => c.workspaceId), chunk.map((c) => c.key), chunk.map((c) => c.body)],
      )) as { id: string; workspaceId: string; webhookId: string; body: Buffer }[]),
    );
  }
  return rows;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
