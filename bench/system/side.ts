// What one side of the comparison (the service, or the floor) measured, and the phases both run
// the same way once their numbers are linked: warm-up, the latency rates, the search for the
// highest sustained rate, a step at a given "half" rate, and the final count of every message.
import type { HeapSample } from './worker-inspector.js';
import type { Ledger } from './ledger.js';
import { rssOf, sleep } from './proc-stats.js';
import { SETTINGS, shape } from './settings.js';
import { runStep, searchSustained, type StepResult, type SystemUnderTest } from './traffic.js';

export interface SoakResult {
  numbers: number;
  rate: number;
  minutes: number;
  step: StepResult;
  /** RSS slope after the first 20 % of the soak (bytes per hour), from its samples. */
  slopeBytesPerHour: number;
  /** The worker's memory right after a forced full collection, sampled through the soak. */
  heapSamples: HeapSample[];
  /** Slopes after the first 20 % of the soak of the heap in use and of the RSS, both after a forced collection. */
  heapSlopeBytesPerHour: number;
  gcRssSlopeBytesPerHour: number;
}

export interface SideResult {
  idleRss: number;
  linkSeconds: number;
  rates: StepResult[];
  best: StepResult | undefined;
  steps: StepResult[];
  half: StepResult | undefined;
  totals: { sent: number; lost: number; duplicated: number; unexpected: number };
  soak?: SoakResult;
}

/** The mean of a few RSS readings a second apart: the process's RSS at rest. */
export const restingRss = async (pid: number): Promise<number> => {
  let sum = 0;
  for (let i = 0; i < 5; i++) {
    sum += rssOf(pid);
    await sleep(1000);
  }
  return sum / 5;
};

export const measureSide = async (
  sut: SystemUnderTest,
  halfRate: (best: StepResult | undefined) => number | undefined,
  hooks: { beforeHalf?: () => Promise<void>; afterHalf?: (half: StepResult) => Promise<void> } = {},
): Promise<Pick<SideResult, 'rates' | 'best' | 'steps' | 'half'>> => {
  const rates: StepResult[] = [];
  for (const rate of SETTINGS.rates) {
    await sleep(2000);
    rates.push(await runStep(sut, shape, { rate, seconds: SETTINGS.stepSeconds }));
  }
  console.log(`  ${sut.name}: searching the highest rate sustained for ${SETTINGS.stepSeconds} s`);
  const { best, steps } = await searchSustained(sut, shape, {
    start: SETTINGS.searchStart,
    factor: SETTINGS.searchFactor,
    max: SETTINGS.searchMax,
    seconds: SETTINGS.stepSeconds,
  });
  const rate = halfRate(best);
  let half: StepResult | undefined;
  if (rate) {
    await sleep(2000);
    console.log(`  ${sut.name}: at R=${rate}/s (half the service's sustained rate)`);
    await hooks.beforeHalf?.();
    half = await runStep(sut, shape, { rate, seconds: SETTINGS.stepSeconds });
    await hooks.afterHalf?.(half);
  }
  return { rates, best, steps, half };
};

/** Waits until nothing is outstanding, or nothing arrived for `quietMs`; then the ledger's count. */
export const finalCount = async (ledger: Ledger, quietMs = 30_000): Promise<SideResult['totals']> => {
  let last = -1;
  let lastChange = Date.now();
  for (;;) {
    const outstanding = ledger.outstanding();
    if (outstanding === 0) break;
    if (outstanding !== last) [last, lastChange] = [outstanding, Date.now()];
    else if (Date.now() - lastChange > quietMs) break;
    await sleep(250);
  }
  // A duplicate comes after the first copy: give late ones a moment.
  await sleep(2000);
  return ledger.totals();
};

/** Least-squares slope over time (bytes per hour) of [ms, bytes] samples after the first 20 % of the time. */
export const slopePerHour = (samples: readonly [number, number][]): number => {
  if (samples.length < 3) return NaN;
  const t0 = samples[0]![0];
  const span = samples[samples.length - 1]![0] - t0;
  const kept = samples.filter(([t]) => t - t0 >= span * 0.2);
  const n = kept.length;
  const mx = kept.reduce((s, [t]) => s + t, 0) / n;
  const my = kept.reduce((s, [, r]) => s + r, 0) / n;
  let num = 0;
  let den = 0;
  for (const [t, r] of kept) {
    num += (t - mx) * (r - my);
    den += (t - mx) ** 2;
  }
  return den ? (num / den) * 3_600_000 : NaN;
};
