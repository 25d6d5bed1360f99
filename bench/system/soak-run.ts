// The soak: a set-up of its own (fresh processes, BENCH_SOAK_NUMBERS numbers linked), so its memory
// owes nothing to the backlogs of the steps before, at BENCH_SOAK_RATE for BENCH_SOAK_MIN. Besides
// the worker's RSS (from /proc, every 5 s) it reads, every BENCH_SOAK_HEAP_EVERY_S, the worker's
// heap and RSS right after a forced full collection (worker-inspector.ts): what a leak would grow.
// BENCH_SOAK_HEAP_PROFILE=<file> also writes what was allocated during the soak and is still alive
// at its end, by stack (open it in Chrome DevTools' Memory tab): where a growing heap comes from.
import { writeFileSync } from 'node:fs';
import { WorkerInspector, type HeapSample } from './worker-inspector.js';
import { loadAverage, MB, sleep } from './proc-stats.js';
import { counted, setUp } from './service-run.js';
import { SETTINGS, shape } from './settings.js';
import { slopePerHour, type SideResult, type SoakResult } from './side.js';
import { runStep } from './traffic.js';

/** Samples the probe every `everyMs` until `stop` resolves; a failed sample is logged and skipped. */
const sampleUntil = async (probe: WorkerInspector, everyMs: number, stop: Promise<unknown>): Promise<HeapSample[]> => {
  const samples: HeapSample[] = [];
  let done = false;
  void stop.finally(() => (done = true));
  while (!done) {
    try {
      samples.push(await probe.sample());
    } catch (error) {
      console.log(`  soak: a heap sample failed (${error instanceof Error ? error.message : String(error)})`);
    }
    await Promise.race([sleep(everyMs), stop]);
  }
  return samples;
};

const at = (values: readonly number[], q: number): string => ((values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0) / MB).toFixed(1);

export const runSoak = async (): Promise<{ soak: SoakResult; totals: SideResult['totals'] }> => {
  const s = await setUp(SETTINGS.soakNumbers, { inspectWorker: true });
  const probe = await WorkerInspector.attach(s.cluster.inspectPort!);
  try {
    console.log(`service: soak, ${SETTINGS.soakNumbers} numbers at ${SETTINGS.soakRate}/s for ${SETTINGS.soakMinutes} min (load average ${loadAverage()})`);
    const profileFile = process.env.BENCH_SOAK_HEAP_PROFILE;
    if (profileFile) await probe.startSampling();
    const running = runStep(s.sut, shape, { rate: SETTINGS.soakRate, seconds: SETTINGS.soakMinutes * 60 }, { sampleEveryMs: 5000 });
    const heap = await sampleUntil(probe, SETTINGS.soakHeapEverySeconds * 1000, running);
    const step = await running;
    if (profileFile) {
      writeFileSync(profileFile, JSON.stringify(await probe.stopSampling()));
      console.log(`service: soak heap profile (allocations still alive at the end, by stack) in ${profileFile}`);
    }
    const rss = step.rssSamples.map(([, r]) => r);
    console.log(
      `service: soak worker RSS at the start ${at(rss, 0)} MB, after 20 % ${at(rss, 0.2)} MB, at 60 % ${at(rss, 0.6)} MB, at the end ${at(rss, 1)} MB`,
    );
    const heapUsed = heap.map((h) => h.heapUsed);
    const gcRss = heap.map((h) => h.rss);
    const gcMs = heap.map((h) => h.gcMs).sort((a, b) => a - b);
    console.log(
      `service: soak worker after a forced collection (${heap.length} samples): heap ${at(heapUsed, 0)} → ${at(heapUsed, 0.2)} → ${at(heapUsed, 0.6)} → ${at(heapUsed, 1)} MB, ` +
        `RSS ${at(gcRss, 0)} → ${at(gcRss, 0.2)} → ${at(gcRss, 0.6)} → ${at(gcRss, 1)} MB; the collection took ${gcMs[Math.floor(gcMs.length / 2)]?.toFixed(0)} ms (median)`,
    );
    const soak: SoakResult = {
      numbers: SETTINGS.soakNumbers,
      rate: SETTINGS.soakRate,
      minutes: SETTINGS.soakMinutes,
      step,
      slopeBytesPerHour: slopePerHour(step.rssSamples),
      heapSamples: heap,
      heapSlopeBytesPerHour: slopePerHour(heap.map((h) => [h.at, h.heapUsed])),
      gcRssSlopeBytesPerHour: slopePerHour(heap.map((h) => [h.at, h.rss])),
    };
    return { soak, totals: await counted(s) };
  } finally {
    probe.close();
    await s.tearDown();
  }
};
