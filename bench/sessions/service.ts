// bench/sessions through the service: S workspaces linked by QR on ONE worker-role process of the
// service (session manager, Redis leases, auth state encrypted in Postgres, inbound handler),
// against the simulator in a child process (its memory is not counted). For each S, a fresh
// process prints resident memory per linked session next to the same process with no session,
// the time to link them all, and the time to resume them all after its app is closed and a new
// one started on the same database and Redis prefix (no QR), with the CPU both sides used.
//   npm run bench:sessions:service                      (S = 10, 50, 200)
//   BENCH_SESSIONS=10,50 npm run bench:sessions:service
//   BENCH_CONCURRENCY (links in flight, default 8); CHAT_* and WA_* variables reach the service
//   (its own defaults otherwise); BENCH_CPU_PROFILE=<dir> writes CPU profiles of the resume.
// Each size uses a scratch database bench_sessions_<pid>, dropped at the end.
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pg from 'pg';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { ScanControlService } from '../../src/modules/chat/session/scan-control.service.js';
import { ScanLiveStateStore } from '../../src/modules/chat/session/scan-live-state.store.js';
import { ScanStateService } from '../../src/modules/chat/session/scan-state.service.js';
import { SIM_CA_FILE } from '../../test/whatsapp-sim/media-host.js';
import { reportResult } from '../result.js';
import { cpuSeconds, load, profiled, settle, startSimulator, stopSimulator } from './sim-process.js';

const SIZES = (process.env.BENCH_SESSIONS ?? '10,50,200').split(',').map(Number);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const MB = 1024 * 1024;
const SERVER = 'postgres://postgres@127.0.0.1:5432';

const inBatches = async <T>(items: T[], run: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
};

const until = async (what: string, check: () => Promise<boolean>, intervalMs = 100, timeoutMs = 600_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
};

/** One size in this process: link S numbers, measure, restart the app, measure the resume. */
const runSize = async (size: number): Promise<void> => {
  const port = 17455;
  const sim = await startSimulator(port);
  const control = `http://127.0.0.1:${port + 1}`;
  const database = `bench_sessions_${process.pid}`;
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    ROLE: 'worker',
    DATABASE_URL: `${SERVER}/${database}`,
    REDIS_PREFIX: `bench:sessions:${process.pid}`,
    LOG_LEVEL: 'silent',
    WA_WEBSOCKET_URL: `ws://127.0.0.1:${port}/ws/chat`,
    WA_MEDIA_CA_FILE: SIM_CA_FILE,
    // The simulator's media host is on 127.0.0.1.
    ALLOW_PRIVATE_MEDIA_URLS: 'true',
    CHAT_CONNECT_WAIT_MS: '30000',
    // The service's defaults otherwise; CHAT_* and WA_* variables of the bench's environment win.
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('CHAT_') || k.startsWith('WA_'))),
  };
  const start = (): Promise<INestApplicationContext> => NestFactory.createApplicationContext(AppModule.forRoot(loadConfig(env)), { logger: false });
  let app = await start();
  // Baileys is loaded on first use: load it before the baseline, as any worker holding a session has.
  await import('@whiskeysockets/baileys');
  const baseline = await settle();
  const db = new pg.Client({ connectionString: `${SERVER}/${database}` });
  await db.connect();
  const workspaces: { id: string; phone: string }[] = [];
  for (let i = 0; i < size; i++) {
    const rows = (await db.query(`INSERT INTO workspaces (name, subscription_status) VALUES ($1, 'active') RETURNING id`, [`bench ${i}`])).rows as {
      id: string;
    }[];
    workspaces.push({ id: rows[0]!.id, phone: String(15551000000 + i) });
  }
  const loadAtLink = load();
  const linkStart = performance.now();
  await inBatches(workspaces, async ({ id, phone }) => {
    await app.get(ScanControlService).connect(id);
    let code: string | undefined;
    await until('a QR', async () => Boolean((code = (await app.get(ScanStateService).qr(id)).code)));
    const res = await fetch(`${control}/scan`, { method: 'POST', body: JSON.stringify({ qr: code, phone }) });
    if (res.status !== 200) throw new Error(`scan failed: ${await res.text()}`);
    await until('linked', async () => (await app.get(ScanStateService).read(id)).connected);
  });
  const linkSeconds = (performance.now() - linkStart) / 1000;
  // Let the links settle (first app-state sync saved), as a restart after a while would find them.
  await new Promise((r) => setTimeout(r, 3000));
  const linked = await settle();

  // Restart: close the process's app (sockets closed, leases released), start a new one.
  await app.close();
  const devicesBefore = await simDevices(control);
  const cpuBefore = { service: cpuSeconds(), sim: cpuSeconds(sim.pid) };
  const loadAtResume = load();
  const resumeStart = performance.now();
  const connectedAt: number[] = [];
  await profiled(`service-resume-${size}`, async () => {
    app = await start();
    const live = app.get(ScanLiveStateStore);
    let pending = workspaces.map((w) => w.id);
    // Polled in the measured process: rarely enough to cost it next to nothing.
    await until(
      'every session resumed',
      async () => {
        const states = await Promise.all(pending.map((id) => live.read(id)));
        const now = performance.now() - resumeStart;
        for (const state of states) if (state.connected) connectedAt.push(now);
        pending = pending.filter((_, i) => !states[i]!.connected);
        return pending.length === 0;
      },
      250,
    );
  });
  const resumeSeconds = (performance.now() - resumeStart) / 1000;
  const cpu = { service: cpuSeconds() - cpuBefore.service, sim: cpuSeconds(sim.pid) - cpuBefore.sim };
  const newDevices = (await simDevices(control)) - devicesBefore;
  const at = (q: number): string => (connectedAt[Math.min(connectedAt.length - 1, Math.floor(q * connectedAt.length))]! / 1000).toFixed(1);
  process.send?.({
    row: [
      String(size).padStart(8),
      (baseline.rss / MB).toFixed(1).padStart(13),
      linkSeconds.toFixed(1).padStart(12),
      (linked.rss / MB).toFixed(1).padStart(8),
      ((linked.rss - baseline.rss) / MB / size).toFixed(2).padStart(16),
      ((linked.heap - baseline.heap) / MB / size).toFixed(2).padStart(17),
      resumeSeconds.toFixed(1).padStart(14),
      String(newDevices).padStart(12),
    ].join(' | '),
    detail:
      `  S=${size}: resumed ${size} — first ${at(0)} s, median ${at(0.5)} s, 90 % ${at(0.9)} s, last ${at(1)} s; ` +
      `CPU during the resume: service ${cpu.service.toFixed(1)} s, simulator ${cpu.sim.toFixed(1)} s; ` +
      `load average at link ${loadAtLink}, at resume ${loadAtResume}, after ${load()}`,
  });
  // Rows for bench/run-all (this child's stdout is the parent's).
  const perSession = (linked.rss - baseline.rss) / MB / size;
  reportResult({
    figure: `sessions (service worker): RSS per session at S=${size} (MB; baseline: the process's RSS with none)`,
    value: perSession,
    baseline: baseline.rss / MB,
    ratio: null,
    target: '< 20 MB per session',
    met: perSession < 20,
  });
  reportResult({
    figure: `sessions (service worker): resume ${size} without a QR (s)`,
    value: resumeSeconds,
    baseline: null,
    ratio: null,
    target: '200 in < 60 s, no new device',
    met: newDevices === 0 && resumeSeconds < (60 * size) / 200,
  });
  await app.close();
  await db.end();
  await stopSimulator(sim);
  const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin.end();
};

/** Devices the simulator has linked: a resume that needed a QR (and a scan) would add one. */
async function simDevices(control: string): Promise<number> {
  const status = (await (await fetch(`${control}/status`)).json()) as { accounts: { devices: unknown[] }[] };
  return status.accounts.reduce((n, a) => n + a.devices.length, 0);
}

if (process.env.BENCH_SIZE) {
  await runSize(Number(process.env.BENCH_SIZE));
  process.exit(0);
} else {
  const overrides = Object.entries(process.env).filter(([k]) => k.startsWith('CHAT_') || k.startsWith('WA_'));
  console.log(`load average ${load()}; settings: ${overrides.length ? overrides.map(([k, v]) => `${k}=${v}`).join(' ') : 'the service defaults'}`);
  console.log('sessions | baseline (MB) | link all (s) | rss (MB) | rss/session (MB) | heap/session (MB) | resume all (s) | new devices');
  const details: string[] = [];
  for (const size of SIZES) {
    // A fresh process per size: its baseline is its own, and nothing of a smaller run stays around.
    const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, BENCH_SIZE: String(size) }, execArgv: ['--expose-gc'] });
    child.on('message', (m: { row: string; detail: string }) => {
      console.log(m.row);
      details.push(m.detail);
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the run for S=${size} failed (exit ${code})`);
  }
  for (const line of details) console.log(line);
  console.log('baseline: the same worker process, Baileys loaded, no session; targets: under 20 MB per session, resume of 200 under 60 s without a QR');
}
