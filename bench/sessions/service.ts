// bench/sessions through the service: S workspaces linked by QR on ONE worker-role process of the
// service (session manager, Redis leases, auth state in Postgres), against the simulator in a child
// process (its memory is not counted). Prints resident memory per session next to the same
// process with no session, the time to link them all, and the time to resume them all after the
// process is closed and a new one started on the same database and Redis prefix (no QR).
//   npm run bench:sessions:service          (S = 10 and 50; BENCH_SESSIONS=10,50,200)
// Uses a scratch database bench_sessions_<pid> on the local Postgres, dropped at the end.
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pg from 'pg';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { ScanControlService } from '../../src/modules/chat/session/scan-control.service.js';
import { ScanStateService } from '../../src/modules/chat/session/scan-state.service.js';
import { reportResult } from '../result.js';
import { settle, startSimulator } from './sim-process.js';

const SIZES = (process.env.BENCH_SESSIONS ?? '10,50').split(',').map(Number);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const MB = 1024 * 1024;
const SERVER = 'postgres://postgres@127.0.0.1:5432';

const inBatches = async <T>(items: T[], run: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) await run(items[next++]!);
  }));
};

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const main = async (): Promise<void> => {
  const port = 17455;
  const sim = await startSimulator(port);
  const control = `http://127.0.0.1:${port + 1}`;
  const database = `bench_sessions_${process.pid}`;
  const env = {
    NODE_ENV: 'test',
    ROLE: 'worker',
    DATABASE_URL: `${SERVER}/${database}`,
    REDIS_PREFIX: `bench:sessions:${process.pid}`,
    LOG_LEVEL: 'silent',
    WA_WEBSOCKET_URL: `ws://127.0.0.1:${port}/ws/chat`,
    CHAT_SWEEP_INTERVAL_MS: '500',
    CHAT_RESUME_PER_SECOND: '1000',
    CHAT_CONNECT_WAIT_MS: '30000',
  };
  const start = (): Promise<INestApplicationContext> => NestFactory.createApplicationContext(AppModule.forRoot(loadConfig(env)), { logger: false });
  let app = await start();
  const baseline = await settle();
  console.log(`baseline (worker process, no session): rss ${(baseline.rss / MB).toFixed(1)} MB, heap ${(baseline.heap / MB).toFixed(1)} MB`);
  console.log('sessions | link all (s) | rss (MB) | rss/session (MB) | heap/session (MB) | resume all (s) | new devices on resume');
  const db = new pg.Client({ connectionString: `${SERVER}/${database}` });
  await db.connect();
  let offset = 0;
  let total = 0;
  const all: string[] = [];
  for (const size of SIZES) {
    const workspaces: { id: string; phone: string }[] = [];
    for (let i = 0; i < size; i++) {
      const rows = (await db.query(`INSERT INTO workspaces (name, subscription_status) VALUES ($1, 'active') RETURNING id`, [`bench ${offset + i}`])).rows as { id: string }[];
      workspaces.push({ id: rows[0]!.id, phone: String(15551000000 + offset + i) });
    }
    offset += size;
    total += size;
    const linkStart = performance.now();
    await inBatches(workspaces, async ({ id, phone }) => {
      await app.get(ScanControlService).connect(id);
      let code: string | undefined;
      await until('a QR', async () => Boolean((code = (await app.get(ScanStateService).qr(id)).code)));
      const res = await fetch(`${control}/scan`, { method: 'POST', body: JSON.stringify({ qr: code, phone }) });
      if (res.status !== 200) throw new Error(`scan failed: ${await res.text()}`);
      await until('linked', async () => (await app.get(ScanStateService).status(id)).connected);
      all.push(id);
    });
    const linkSeconds = (performance.now() - linkStart) / 1000;
    await new Promise((r) => setTimeout(r, 3000));
    const linked = await settle();

    // Restart: close the process's app (sockets closed, leases released), start a new one.
    await app.close();
    const qrsBefore = await simQrs(control);
    const resumeStart = performance.now();
    app = await start();
    await until('every session resumed', async () => {
      for (const id of all) if (!(await app.get(ScanStateService).status(id)).connected) return false;
      return true;
    });
    const resumeSeconds = (performance.now() - resumeStart) / 1000;
    const newQrs = (await simQrs(control)) - qrsBefore;
    console.log([
      String(size).padStart(8),
      linkSeconds.toFixed(1).padStart(12),
      (linked.rss / MB).toFixed(1).padStart(8),
      ((linked.rss - baseline.rss) / MB / total).toFixed(2).padStart(16),
      ((linked.heap - baseline.heap) / MB / total).toFixed(2).padStart(17),
      resumeSeconds.toFixed(1).padStart(14),
      String(newQrs).padStart(20),
    ].join(' | ') + (total !== size ? `   (${total} sessions held in all; per-session figures over all of them)` : ''));
    const perSession = (linked.rss - baseline.rss) / MB / total;
    reportResult({ figure: `sessions (service worker): RSS per session at S=${total} (MB; baseline: the process's RSS with none)`, value: perSession, baseline: baseline.rss / MB, ratio: null, target: '< 20 MB per session', met: perSession < 20 });
    reportResult({ figure: `sessions (service worker): resume ${total} without a QR (s)`, value: resumeSeconds, baseline: null, ratio: null, target: '200 in < 60 s, 0 QRs', met: newQrs === 0 && resumeSeconds < (60 * total) / 200 });
  }
  await app.close();
  await db.end();
  sim.kill('SIGTERM');
  const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
  console.log('targets: under 20 MB per session; resume of 200 sessions under 60 s without a QR');
  process.exit(0);
};

/** Devices the simulator has linked: a resume that needed a QR (and a scan) would add one. */
async function simQrs(control: string): Promise<number> {
  const status = (await (await fetch(`${control}/status`)).json()) as { accounts: { devices: unknown[] }[] };
  return status.accounts.reduce((n, a) => n + a.devices.length, 0);
}

await main();
