import { afterAll, beforeAll, describe, expect } from '@jest/globals';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { cleanupAll } from './support/cleanup.js';
import { type ContactsWriting, contactsWriting as writing } from './support/contacts-writing.js';
import { FaultCluster, type Workspace } from './support/cluster.js';
import { sleep, waitFor } from './support/ports.js';
import { faultScenarios } from './support/scenario.js';

const phoneOf = (i: number): string => `1555071${String(i).padStart(4, '0')}`;

/**
 * Placement across real worker processes (docs/operations.md, "Placement"): numbers have a home
 * among the live workers (rendezvous hashing over the membership list), a new worker gets its
 * share handed over one number at a time without two sockets of a number ever running, a worker
 * stopped with SIGTERM hands its numbers to the others evenly, and with every worker at its cap
 * the numbers left over are reported unplaced.
 */
describe('fault injection: numbers placed across workers', () => {
  let sim: WhatsAppSimulator;
  let cluster: FaultCluster;
  let numbers: Workspace[];
  const { scenario, failed } = faultScenarios(240_000);

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    // One handover per 300 ms per worker (2 s by default): thirty numbers settle within seconds.
    cluster = await FaultCluster.start(sim, { CHAT_HANDOVER_INTERVAL_MS: '300' });
    const owner = await cluster.workspace('Placer', phoneOf(0));
    numbers = [
      owner,
      ...(await cluster.moreWorkspaces(
        owner,
        Array.from({ length: 29 }, (_, i) => phoneOf(i + 1)),
      )),
    ];
    // Ten at a time: claims reach both workers, which take them first come, first served.
    for (let i = 0; i < numbers.length; i += 10) await Promise.all(numbers.slice(i, i + 10).map((ws) => cluster.link(ws)));
  }, 240_000);

  afterAll(async () => {
    if (failed() && cluster) console.error(`fault suite: process logs\n${cluster.logs()}`);
    const problems = await cleanupAll();
    await sim?.stop();
    if (problems.length) throw new Error(`cleanup: ${problems.join('; ')}`);
  });

  /** Never two live sockets of one number at the simulator; answers how many are connected. */
  const sample = (): number => {
    let connected = 0;
    for (const ws of numbers) {
      const open = sim.connectionsOf(ws.phone).length;
      expect([ws.phone, open <= 1]).toEqual([ws.phone, true]);
      connected += open;
    }
    return connected;
  };

  /** Samples every 100 ms while `work` runs; the first sample that failed fails the run. */
  async function sampled<T>(work: () => Promise<T>): Promise<T> {
    let sampling = true;
    let problem: unknown;
    const loop = (async () => {
      while (sampling) {
        try {
          sample();
        } catch (error) {
          problem ??= error;
        }
        await sleep(100);
      }
    })();
    let result: T;
    try {
      result = await work();
    } finally {
      sampling = false;
      await loop;
    }
    if (problem) throw problem;
    return result;
  }

  /** A contact writing to every number every `everyMs`; answers the ids per number when stopped. */
  const contactsWriting = (label: string, everyMs = 500): ContactsWriting => writing(sim, numbers, { from: '4915100900071', name: 'Spreader' }, label, everyMs);

  const allConnected = (): Promise<boolean> => cluster.allConnected(numbers);

  scenario(
    '30 numbers on 2 workers, a third starts: the numbers spread about evenly, one socket per number at every sample, every message stored once',
    async () => {
      // Linked, the numbers may still settle between the two workers (a handover closes a socket
      // before the other worker opens it): every one held, once that is done.
      await waitFor('both workers hold every number', async () => (await cluster.held()).reduce((a, b) => a + b, 0) === 30, 60_000, 200);
      const writers = contactsWriting('while a worker joins');
      const third = await cluster.addWorker({ CHAT_HANDOVER_INTERVAL_MS: '300' });
      const started = Date.now();
      const spread = await sampled(async () => {
        await third.start();
        return waitFor(
          'the numbers spread over three workers',
          async () => {
            const held = await cluster.held();
            return held.every((n) => n >= 8 && n <= 12) && held.reduce((a, b) => a + b, 0) === 30 ? held : undefined;
          },
          90_000,
          200,
        );
      });
      const settled = Date.now() - started;
      await waitFor('every number connected', allConnected, 60_000, 200);
      const written = await writers.stop();
      expect(spread).toHaveLength(3);
      for (const [ws, ids] of written) expect(await cluster.allStoredOnce(ws.id, ids, 60_000)).toEqual([]);
      // The placement the CLI reports: three workers, nothing moving or unplaced, every holder at home.
      const report = (await cluster.cli('placement')) as { workers: unknown[]; numbers: { holder: string; home: string }[]; moving: number; unplaced: number };
      expect(report.workers).toHaveLength(3);
      expect([report.moving, report.unplaced]).toEqual([0, 0]);
      expect(report.numbers.every((n) => n.holder === n.home)).toBe(true);
      console.log(`placement: a third worker took its share (${spread.join('/')}) within ${settled} ms`);
    },
  );

  scenario('a worker stopped with SIGTERM hands its numbers to the other two evenly', async () => {
    const before = await cluster.held();
    const victim = cluster.workers[2]!;
    const mine = before[2]!;
    const writers = contactsWriting('while a worker leaves');
    await sampled(async () => {
      expect((await victim.signal('SIGTERM')).code).toBe(0);
      await waitFor('the other two hold every number', async () => (await cluster.held()).reduce((a, b) => a + b, 0) === 30, 60_000, 200);
    });
    const after = await cluster.held();
    // Each survivor took about half of the stopped worker's numbers.
    for (const i of [0, 1]) expect(after[i]! - before[i]!).toBeGreaterThanOrEqual(Math.floor(mine / 2) - 2);
    for (const i of [0, 1]) expect(after[i]!).toBeLessThanOrEqual(17);
    await waitFor('every number connected', allConnected, 60_000, 200);
    const written = await writers.stop();
    for (const [ws, ids] of written) expect(await cluster.allStoredOnce(ws.id, ids, 60_000)).toEqual([]);
  });

  scenario('a cap of 10 per worker with 3 workers and 35 numbers: 30 held, 5 unplaced and reported', async () => {
    const owner = numbers[0]!;
    const extra = await cluster.moreWorkspaces(owner, [31, 32, 33, 34, 35].map(phoneOf));
    await Promise.all(extra.map((ws) => cluster.link(ws)));
    numbers.push(...extra);
    // Every worker restarted with the cap, one after the other (a rolling restart).
    for (const worker of cluster.workers) {
      worker.env.CHAT_MAX_SESSIONS_PER_WORKER = '10';
      if (worker.running) expect((await worker.signal('SIGTERM')).code).toBe(0);
      await worker.start();
    }
    await waitFor(
      '30 numbers held, 10 per worker',
      async () => {
        const held = await cluster.held();
        return held.every((n) => n === 10) ? held : undefined;
      },
      90_000,
      250,
    );
    await sleep(1_000);
    expect(await cluster.held()).toEqual([10, 10, 10]);
    const statuses = await Promise.all(numbers.map((ws) => cluster.status(ws)));
    const unplaced = statuses.filter((s) => (s.placement as { state?: string } | null)?.state === 'unplaced');
    expect(unplaced).toHaveLength(5);
    expect(unplaced[0]!.placement).toEqual({
      state: 'unplaced',
      explanation: 'every worker holds CHAT_MAX_SESSIONS_PER_WORKER numbers, so none takes this one: start another worker or raise the cap',
    });
    expect(statuses.filter((s) => (s.placement as { state?: string } | null)?.state === 'held')).toHaveLength(30);
    expect(await cluster.metrics(cluster.workers[0]!)).toMatch(/^inbox_scan_numbers_unplaced 5$/m);
    expect(((await cluster.cli('placement')) as { unplaced: number }).unplaced).toBe(5);
  });
});
