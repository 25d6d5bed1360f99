// The service's side: the simulator, the receiver, one api and one worker process; N workspaces
// linked on the worker, each with its webhook. With K numbers: the phases of side.ts. The soak
// (soak-run.ts) runs on a set-up of its own.
import { writeFileSync } from 'node:fs';
import { Ledger } from './ledger.js';
import { loadAverage, MB, sleep } from './proc-stats.js';
import { WebhookReceiver } from './receiver.js';
import { buildServiceIfNeeded, ServiceCluster } from './service-processes.js';
import { phonesOf, SETTINGS, shape } from './settings.js';
import { finalCount, measureSide, restingRss, type SideResult } from './side.js';
import { SimHandle } from './sim-handle.js';
import { RoundTrips } from './round-trips.js';
import { describeStages } from './stages.js';
import { warmUp, type SystemUnderTest } from './traffic.js';
import { WorkerInspector } from './worker-inspector.js';
import { inBatches, ServiceApi } from './workspaces.js';

export interface ServiceSetUp {
  sut: SystemUnderTest;
  cluster: ServiceCluster;
  idleRss: number;
  linkSeconds: number;
  receiver: WebhookReceiver;
  tearDown: () => Promise<void>;
}

/** Fresh processes with `count` numbers linked, warmed up. */
export const setUp = async (count: number, options: { inspectWorker?: boolean } = {}): Promise<ServiceSetUp> => {
  buildServiceIfNeeded();
  const sim = await SimHandle.start();
  const ledger = new Ledger();
  const receiver = await WebhookReceiver.start(ledger);
  const cluster = await ServiceCluster.start(sim.url, { inspectWorker: options.inspectWorker });
  const tearDown = async (): Promise<void> => {
    await cluster.stop();
    await receiver.stop();
    await sim.stop();
  };
  try {
    const api = await ServiceApi.signIn(cluster);
    const ids = [api.first, ...(await api.createWorkspaces(count - 1, 1))];
    const phones = phonesOf(count);
    const workspaces = ids.map((id, i) => ({ id, phone: phones[i]! }));
    for (const ws of workspaces) await api.addWebhook(ws.id, receiver.url);
    await sleep(2000);
    const idleRss = await restingRss(cluster.worker.pid);
    console.log(`service: worker RSS with no numbers ${(idleRss / MB).toFixed(1)} MB; linking ${count} numbers (load average ${loadAverage()})`);
    const start = performance.now();
    await inBatches(workspaces, SETTINGS.linkConcurrency, (ws) => api.link(ws, sim.control));
    const linkSeconds = (performance.now() - start) / 1000;
    console.log(`service: ${count} numbers linked in ${linkSeconds.toFixed(1)} s`);
    // The links' history-sync jobs run meanwhile: let them finish.
    await sleep(5000);
    const sut: SystemUnderTest = { name: 'service', sim, ledger, phones, cpuPids: [cluster.worker.pid, cluster.api.pid], rssPid: cluster.worker.pid };
    await warmUp(sut, shape, Math.min(100, SETTINGS.searchStart));
    return {
      sut,
      cluster,
      idleRss,
      linkSeconds,
      receiver,
      tearDown,
    };
  } catch (error) {
    console.error(`service: set-up failed; worker log:\n${cluster.worker.logTail()}\napi log:\n${cluster.api.logTail()}`);
    await tearDown();
    throw error;
  }
};

export const counted = async (s: ServiceSetUp): Promise<SideResult['totals']> => {
  const totals = await finalCount(s.sut.ledger);
  console.log(
    `service: ${totals.sent} messages sent, ${totals.lost} lost, ${totals.duplicated} duplicated, ${totals.unexpected} unexpected; ` +
      `${s.receiver.repeatedDeliveries} repeated webhook-ids, ${s.receiver.otherEvents} other events (load average ${loadAverage()})`,
  );
  return totals;
};

export const runService = async (): Promise<SideResult> => {
  // BENCH_SYSTEM_CPU_PROFILE=<file>: the worker's CPU profile over the half-rate step.
  const profileFile = process.env.BENCH_SYSTEM_CPU_PROFILE;
  const s = await setUp(SETTINGS.numbers, { inspectWorker: Boolean(profileFile) });
  const inspector = profileFile ? await WorkerInspector.attach(s.cluster.inspectPort!) : undefined;
  const trips = new RoundTrips(s.cluster.db, s.cluster.database, s.cluster.env.REDIS_URL!);
  let tripsOfHalf = '';
  try {
    const measured = await measureSide(s.sut, (best) => (best ? Math.max(1, Math.round(best.rate / 2)) : undefined), {
      beforeHalf: async () => {
        await trips.start();
        await inspector?.startCpuProfile();
      },
      afterHalf: async (half) => {
        if (inspector && profileFile) writeFileSync(profileFile, JSON.stringify(await inspector.stopCpuProfile()));
        tripsOfHalf = await trips.per(half.sent);
      },
    });
    if (tripsOfHalf) console.log(`service: at R=${measured.half?.rate}/s, ${tripsOfHalf}`);
    for (const step of [measured.best, measured.half]) if (step) console.log(`service: stages at ${await describeStages(s.cluster.db, s.sut.ledger, step)}`);
    return { idleRss: s.idleRss, linkSeconds: s.linkSeconds, ...measured, totals: await counted(s) };
  } finally {
    inspector?.close();
    await s.tearDown();
  }
};
