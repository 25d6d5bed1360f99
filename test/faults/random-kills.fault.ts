import { afterAll, beforeAll, describe, expect } from '@jest/globals';
import { AckLedger } from '../whatsapp-sim/ack-ledger.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { cleanupAll } from './support/cleanup.js';
import { type ContactsWriting, contactsWriting as writing } from './support/contacts-writing.js';
import { FaultCluster, type Workspace } from './support/cluster.js';
import { sleep, waitFor } from './support/ports.js';
import { faultScenarios } from './support/scenario.js';
import type { ServiceProcess } from './support/service-process.js';

const KILLS = 20;

/**
 * Zero acknowledged-message loss (docs/operations.md): the receipt of an inbound message goes to
 * WhatsApp only once the message is committed, so a worker killed at any moment loses nothing;
 * what it had not stored, WhatsApp delivers again to the worker that takes the number over. Here
 * contacts write to three numbers all the time while workers are killed with `kill -9` at random
 * moments, half in steady traffic and half while the numbers are reconnecting after the previous
 * kill; then Postgres is stopped during traffic and a worker is killed in the middle of the outage.
 * Every message a contact sent is found stored exactly once.
 */
describe('fault injection: workers killed at random moments', () => {
  let sim: WhatsAppSimulator;
  let cluster: FaultCluster;
  let numbers: Workspace[];
  let ledger: AckLedger;
  const { scenario, failed } = faultScenarios(420_000);

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    // Leases of 1.5 s (renewed every 0.5 s): a dead worker's numbers move within ~2 s, so twenty
    // kills fit in about two minutes. Never two sockets of a number: a worker that misses its
    // renewals closes its sockets first.
    cluster = await FaultCluster.start(sim, { CHAT_LEASE_TTL_MS: '1500', CHAT_SWEEP_INTERVAL_MS: '200' });
    numbers = [];
    for (const [name, phone] of [
      ['Kilo', '15550700061'],
      ['Lima', '15550700062'],
      ['Mike', '15550700063'],
    ] as const) {
      const ws = await cluster.workspace(name, phone);
      await cluster.link(ws);
      numbers.push(ws);
    }
    ledger = AckLedger.watch(sim);
  }, 180_000);

  afterAll(async () => {
    ledger?.stop();
    if (failed() && cluster) console.error(`fault suite: process logs\n${cluster.logs()}`);
    const problems = await cleanupAll();
    await sim?.stop();
    if (problems.length) throw new Error(`cleanup: ${problems.join('; ')}`);
  });

  /** A contact per number writing every `everyMs` until stopped; answers the ids per number. */
  const contactsWriting = (label: string, everyMs = 100): ContactsWriting =>
    writing(sim, numbers, { from: '4915100900061', name: 'Killer Queen' }, label, everyMs);

  /**
   * Messages sent in the second before `at` and not acknowledged by then: what a kill at `at`
   * caught in flight (the receipt-before-commit of plain Baileys could lose these).
   */
  const inFlightAt = (ids: readonly string[], sentAt: ReadonlyMap<string, number>, at: number): number =>
    ids.filter((id) => {
      const acked = ledger.ackedAt(id);
      return (sentAt.get(id) ?? 0) > at - 1_000 && (acked === undefined || acked > at);
    }).length;

  const allConnected = (): Promise<boolean> => cluster.allConnected(numbers);

  /** Workers that are up: a killed one is out until it has booted again. */
  const ready = new Set<ServiceProcess>();
  const booting = new Map<ServiceProcess, Promise<void>>();
  /** Starts `worker` again in the background (a kill never waits for the boot it caused). */
  const restart = (worker: ServiceProcess): void => {
    ready.delete(worker);
    booting.set(
      worker,
      worker.start().then(() => void ready.add(worker)),
    );
  };
  const allReady = async (): Promise<void> => {
    await Promise.all(booting.values());
  };

  scenario(`${KILLS} kill -9s at random moments, in steady traffic and during reconnects: every message stored exactly once`, async () => {
    for (const worker of cluster.workers) ready.add(worker);
    const writers = contactsWriting('through the kills');
    let atRisk = 0;
    let written: Map<Workspace, string[]>;
    try {
      for (let kill = 0; kill < KILLS; kill += 1) {
        if (kill % 2 === 1) {
          // Right after the previous kill: the survivor is taking the numbers over, resuming
          // sockets and receiving what WhatsApp held for them. Kill it somewhere in there.
          const total = async (): Promise<number> => (await cluster.held()).reduce((a, b) => a + b, 0);
          await waitFor('the numbers taken over', async () => (await total()) === numbers.length, 30_000, 50);
          await sleep(Math.random() * 800);
        } else {
          await waitFor('every number connected', allConnected, 60_000, 100);
          await sleep(200 + Math.random() * 1_000);
        }
        // The up worker holding the most sockets; the other must be up to take them over.
        const held = await cluster.held();
        const [victim] = [...ready].sort((a, b) => held[cluster.workers.indexOf(b)]! - held[cluster.workers.indexOf(a)]!);
        const survivor = cluster.workers.find((worker) => worker !== victim)!;
        await booting.get(survivor);
        const killedAt = Date.now();
        expect((await victim!.signal('SIGKILL')).signal).toBe('SIGKILL');
        atRisk += numbers.reduce((sum, ws) => sum + inFlightAt(writers.written.get(ws) ?? [], writers.sentAt, killedAt), 0);
        restart(victim!);
      }
      await allReady();
      await waitFor('every number connected after the last kill', allConnected, 60_000, 100);
      await sleep(1_000);
    } finally {
      written = await writers.stop();
    }
    for (const [ws, ids] of written) {
      expect(ids.length).toBeGreaterThan(50);
      expect(await cluster.allStoredOnce(ws.id, ids, 90_000)).toEqual([]);
    }
    // The kills caught messages in flight (else the test proved nothing about the receipts);
    // how many is printed for the record, never asserted beyond that.
    expect(atRisk).toBeGreaterThan(0);
    console.log(`random kills: ${KILLS} kills caught ${atRisk} messages in flight (sent, not yet acknowledged); all stored once`);
  });

  scenario('Postgres stops during traffic and the worker holding the numbers is killed in the middle of the outage: nothing is lost', async () => {
    await allReady();
    await waitFor('every number connected', allConnected, 60_000, 100);
    const writers = contactsWriting('through the outage and the kill', 200);
    await sleep(1_000);
    await cluster.postgres.stop('fast');
    // Messages arrive meanwhile: none can be stored, so none is acknowledged.
    await sleep(3_000);
    const held = await cluster.held();
    const victim = cluster.workers[held[0]! >= held[1]! ? 0 : 1]!;
    expect((await victim.signal('SIGKILL')).signal).toBe('SIGKILL');
    await sleep(3_000);
    await cluster.postgres.startServer();
    await victim.start();
    await waitFor('every number connected after the outage', allConnected, 90_000, 200);
    await sleep(1_000);
    const written = await writers.stop();
    for (const [ws, ids] of written) expect(await cluster.allStoredOnce(ws.id, ids, 90_000)).toEqual([]);
  });
});
