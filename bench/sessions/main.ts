// bench/sessions: resident memory per linked Baileys session, the time to link S simulated numbers
// and the time to resume them all without a QR, in one process, next to the same process with no
// session (the baseline). The simulator runs in a child process so its memory is not counted.
//   npm run bench:sessions                  (S = 10 and 50)
//   BENCH_SESSIONS=10,50,200 npm run bench:sessions
//   BENCH_CONCURRENCY (links/resumes in flight, default 8)
// "Resume" ends every socket and opens a new one on the same in-memory auth state: the Baileys side
// of a worker restart; bench/sessions/service.ts measures the service's own (auth state from
// Postgres, session manager). Node is started with --expose-gc so every figure is after a full GC.
import { BaileysClient } from '../../test/whatsapp-sim/baileys-client.js';
import { reportResult } from '../result.js';
import { settle, startSimulator } from './sim-process.js';

const SIZES = (process.env.BENCH_SESSIONS ?? '10,50').split(',').map(Number);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const MB = 1024 * 1024;

const inBatches = async <T>(items: T[], run: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
};

const link = async (wsUrl: string, control: string, phone: string): Promise<BaileysClient> => {
  const client = new BaileysClient(wsUrl);
  const qr = client.next('qr');
  const open = client.next('open');
  client.start();
  const [code] = await qr;
  const res = await fetch(`${control}/scan`, { method: 'POST', body: JSON.stringify({ qr: code, phone }) });
  if (res.status !== 200) throw new Error(`scan failed: ${await res.text()}`);
  await open;
  return client;
};

const resume = async (client: BaileysClient): Promise<void> => {
  const open = client.next('open');
  client.start();
  await open;
};

const main = async (): Promise<void> => {
  const port = 17355;
  const sim = await startSimulator(port);
  const wsUrl = `ws://127.0.0.1:${port}/ws/chat`;
  const control = `http://127.0.0.1:${port + 1}`;
  const baseline = await settle();
  console.log(`baseline (Baileys loaded, no session): rss ${(baseline.rss / MB).toFixed(1)} MB, heap ${(baseline.heap / MB).toFixed(1)} MB`);
  console.log('sessions | link all (s) | rss (MB) | rss/session (MB) | heap/session (MB) | resume all (s) | QRs on resume');
  let offset = 0;
  for (const size of SIZES) {
    const phones = Array.from({ length: size }, (_, i) => String(15550000000 + offset + i));
    offset += size;
    const clients: BaileysClient[] = [];
    const linkStart = performance.now();
    await inBatches(phones, async (phone) => void clients.push(await link(wsUrl, control, phone)));
    const linkSeconds = (performance.now() - linkStart) / 1000;
    await new Promise((r) => setTimeout(r, 2000));
    const linked = await settle();

    for (const client of clients) client.stop();
    await new Promise((r) => setTimeout(r, 1000));
    const qrsBefore = clients.reduce((n, c) => n + c.qrs.length, 0);
    const resumeStart = performance.now();
    await inBatches(clients, resume);
    const resumeSeconds = (performance.now() - resumeStart) / 1000;
    const newQrs = clients.reduce((n, c) => n + c.qrs.length, 0) - qrsBefore;

    console.log(
      [
        String(size).padStart(8),
        linkSeconds.toFixed(1).padStart(12),
        (linked.rss / MB).toFixed(1).padStart(8),
        ((linked.rss - baseline.rss) / MB / size).toFixed(2).padStart(16),
        ((linked.heap - baseline.heap) / MB / size).toFixed(2).padStart(17),
        resumeSeconds.toFixed(1).padStart(14),
        String(newQrs).padStart(13),
      ].join(' | '),
    );
    const perSession = (linked.rss - baseline.rss) / MB / size;
    reportResult({
      figure: `sessions (Baileys only): RSS per session at S=${size} (MB; baseline: the process's RSS with none)`,
      value: perSession,
      baseline: baseline.rss / MB,
      ratio: null,
      target: '< 20 MB per session',
      met: perSession < 20,
    });
    reportResult({
      figure: `sessions (Baileys only): resume ${size} without a QR (s)`,
      value: resumeSeconds,
      baseline: null,
      ratio: null,
      target: '200 in < 60 s, 0 QRs',
      met: newQrs === 0 && resumeSeconds < (60 * size) / 200,
    });
    for (const client of clients) client.stop();
    await new Promise((r) => setTimeout(r, 1000));
  }
  sim.kill('SIGTERM');
  console.log('targets: under 20 MB per session; resume of 200 sessions under 60 s without a QR');
  process.exit(0);
};

await main();
