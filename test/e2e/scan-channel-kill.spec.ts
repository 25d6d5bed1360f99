import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ScanControlBus } from '../../src/modules/chat/session/scan-control.bus.js';
import { ScanLeases } from '../../src/modules/chat/session/scan-leases.js';
import type { TestApp } from '../support/test-app.js';
import { AckLedger } from '../whatsapp-sim/ack-ledger.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  countConnections,
  createE2eApp,
  eventually,
  expectEachOnce,
  keepWriting,
  link,
  linkSettled,
  newWorkspace,
  sleep,
  statusWhen,
  type E2eWorkspace,
  type SimCounts,
  workerProcessEnv,
} from './e2e-support.js';

/**
 * Issue 12, item 7, the hard way: the worker holding the socket is a real process (the built
 * service, `node dist/src/main.js` with ROLE=worker) and dies by SIGKILL: no shutdown hook runs,
 * its lease is not released, its socket is cut by the kernel. The other worker takes the number
 * over once the lease runs out, without a QR, and every message a contact wrote arrives once,
 * except what the dead worker had acknowledged to WhatsApp in its last moments and not committed
 * (Baileys acknowledges before it hands a message over: test/whatsapp-sim/ack-ledger.ts).
 */
jest.setTimeout(120_000);

const ROOT = resolve(import.meta.dirname, '../..');
const PHONE = '15550100007';

describe('scan channel end to end: a worker killed with SIGKILL', () => {
  let sim: WhatsAppSimulator;
  let api: TestApp;
  let survivor: TestApp | undefined;
  let child: ChildProcess | undefined;
  let output = '';
  let ws: E2eWorkspace;
  let counts: SimCounts;

  const holderProcess = async (): Promise<string | undefined> => {
    const token = await api.redis.get(api.app.get(ScanLeases).key(ws.workspaceId));
    return token ? ScanLeases.processOf(token) : undefined;
  };

  beforeAll(async () => {
    // The same build `npm start` runs (compiled only when a source is newer than dist/).
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe', timeout: 300_000 });
    sim = await WhatsAppSimulator.start();
    counts = countConnections(sim, PHONE);
    api = await createE2eApp(sim, { env: { ROLE: 'api' } });
    ws = await newWorkspace(api);
    child = spawn(process.execPath, [resolve(ROOT, 'dist/src/main.js')], {
      // An empty directory, so no developer .env leaks in.
      cwd: tmpdir(),
      env: workerProcessEnv(api, sim, { LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      'the worker process running',
      () => output.includes('worker running') || (child!.exitCode !== null && Promise.reject(new Error(`the worker exited:\n${output}`))),
      60_000,
    );
  }, 360_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await survivor?.close();
    await api?.close();
    await sim?.stop();
  });

  it("the other worker takes the number over once the dead one's lease runs out: no QR, one login, every message exactly once", async () => {
    // Linked through the api process while the child is the only worker: it holds the socket.
    await link(api, sim, ws, PHONE);
    await linkSettled(api, ws.workspaceId);
    const dead = await holderProcess();
    expect(dead).toBeDefined();
    survivor = await createE2eApp(sim, { replicaOf: api, env: { ROLE: 'worker' } });
    const survivorProcess = survivor.app.get(ScanControlBus).processId;
    expect(dead).not.toBe(survivorProcess);
    const qrsBefore = counts.qrs;
    const loginsBefore = counts.logins;

    // A contact writes before, during and after the crash.
    const ledger = AckLedger.watch(sim);
    const writer = keepWriting(sim, PHONE, '4915100700001', 'crash', 150);
    await sleep(400);
    const exited = new Promise((done) => child!.once('exit', done));
    const killedAt = Date.now();
    child!.kill('SIGKILL');
    await exited;
    await sim.waitForOffline(PHONE);
    // The lease outlives its holder: nobody else may open the number until it runs out.
    expect(await holderProcess()).toBe(dead);

    await eventually('the survivor holds the lease', async () => (await holderProcess()) === survivorProcess, 40_000);
    await statusWhen(api, ws, 'connected again', (s) => s.connected === true, 30_000);
    await sleep(300);
    const ids = await writer.stop();

    expect(counts.qrs).toBe(qrsBefore);
    expect(counts.logins).toBe(loginsBefore + 1);
    expect(sim.connectionsOf(PHONE)).toHaveLength(1);
    // A message is acknowledged to WhatsApp only once stored: what the dead worker had not
    // committed, WhatsApp delivered again to the survivor. Every message arrives exactly once.
    ledger.stop();
    expect(ledger.closedAfter(PHONE, killedAt)).toBeDefined();
    await expectEachOnce(api, ws, ids, 'crash');
  });
});
