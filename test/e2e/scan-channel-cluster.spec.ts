import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ScanControlBus } from '../../src/modules/chat/session/scan-control.bus.js';
import { ScanLeases } from '../../src/modules/chat/session/scan-leases.js';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import {
  countConnections,
  createE2eApp,
  eventually,
  expectEachOnce,
  keepWriting,
  link,
  linkSettled,
  messageWhen,
  newWorkspace,
  sleep,
  statusWhen,
  type E2eWorkspace,
  type SimCounts,
} from './e2e-support.js';

/**
 * Two worker processes on one database and Redis, behind an `api` process (issue 12, item 7):
 * one socket per number in the whole cluster, and a clean handover when its holder stops.
 */
jest.setTimeout(60_000);

const PHONE = '15550100003';

describe('scan channel end to end: two workers', () => {
  let sim: WhatsAppSimulator;
  let api: TestApp;
  const workers: TestApp[] = [];
  let ws: E2eWorkspace;
  let counts: SimCounts;

  /** The worker whose process holds the workspace's lease. */
  const holder = async (): Promise<TestApp | undefined> => {
    const token = await api.redis.get(api.app.get(ScanLeases).key(ws.workspaceId));
    if (!token) return undefined;
    return workers.find((w) => w.app.get(ScanControlBus).processId === ScanLeases.processOf(token));
  };

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    counts = countConnections(sim, PHONE);
    api = await createE2eApp(sim, { env: { ROLE: 'api' } });
    for (let i = 0; i < 2; i += 1) workers.push(await createE2eApp(sim, { replicaOf: api, env: { ROLE: 'worker' } }));
    ws = await newWorkspace(api);
  });
  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await api?.close();
    await sim?.stop();
  });

  it('links through the api process; only one worker holds a socket to the simulator', async () => {
    const linked = await link(api, sim, ws, PHONE);
    expect(linked).toMatchObject({ connected: true, logged_in: true });
    await linkSettled(api, ws.workspaceId);
    // Both workers sweep every 200 ms: a second socket would have shown up (and replaced the first: 440) by now.
    await sleep(1_000);
    expect(sim.connectionsOf(PHONE)).toHaveLength(1);
    expect(sim.devicesOf(PHONE)).toHaveLength(1);
    expect(await holder()).toBeDefined();
    const id = await sim.deliverText({ to: PHONE, from: '4915100400001', text: 'to the cluster' });
    await messageWhen(api, ws, id);
  });

  it('when the holder stops, the other worker resumes the session without a QR and no inbound message is lost', async () => {
    const stopping = (await holder())!;
    const survivor = workers.find((w) => w !== stopping)!;
    const qrsBefore = counts.qrs;
    const loginsBefore = counts.logins;
    const from = '4915100400002';

    // Contacts keep writing through the whole handover.
    const writer = keepWriting(sim, PHONE, from, 'handover');
    await sleep(300);
    workers.splice(workers.indexOf(stopping), 1);
    await stopping.close();
    await eventually('the survivor holds the lease', async () => (await holder()) === survivor, 30_000);
    await statusWhen(api, ws, 'connected again', (s) => s.connected === true, 30_000);
    await sleep(300);
    const ids = await writer.stop();

    expect(counts.qrs).toBe(qrsBefore);
    expect(counts.logins).toBe(loginsBefore + 1);
    expect(sim.connectionsOf(PHONE)).toHaveLength(1);
    await expectEachOnce(api, ws, ids, 'handover');
  });

  it('when the holder is cut off from Redis, it closes its socket and the other worker takes over after the lease runs out', async () => {
    workers.push(await createE2eApp(sim, { replicaOf: api, env: { ROLE: 'worker' } }));
    await linkSettled(api, ws.workspaceId);
    const cutOff = (await holder())!;
    const survivor = workers.find((w) => w !== cutOff)!;
    const qrsBefore = counts.qrs;
    const loginsBefore = counts.logins;
    // It can neither renew its lease nor take one: it must stop using the number before the lease can expire.
    const leases = cutOff.app.get(ScanLeases);
    jest.spyOn(leases, 'renew').mockRejectedValue(new Error('Redis unreachable from this worker'));
    jest.spyOn(leases, 'acquire').mockRejectedValue(new Error('Redis unreachable from this worker'));

    await eventually('the cut-off worker closed its socket', () => !sim.isOnline(PHONE), 30_000);
    const id = await sim.deliverText({ to: PHONE, from: '4915100400003', text: 'written during the takeover' });
    await eventually('the survivor holds the lease', async () => (await holder()) === survivor, 40_000);
    const s = await statusWhen(api, ws, 'connected again', (x) => x.connected === true, 30_000);
    expect(s.error).toBeUndefined();
    expect(await messageWhen(api, ws, id)).toMatchObject({ content: 'written during the takeover' });
    expect(counts.qrs).toBe(qrsBefore);
    // One new login, and no 440 loop between the two workers.
    expect(counts.logins).toBe(loginsBefore + 1);
    expect(sim.connectionsOf(PHONE)).toHaveLength(1);
  });
});
