// The rows for bench/run-all (bench/result.ts), each with the floor of the same run as baseline,
// and a human-readable summary.
import { reportResult } from '../result.js';
import { MB } from './proc-stats.js';
import { SETTINGS } from './settings.js';
import type { SideResult, SoakResult } from './side.js';
import type { StepResult } from './traffic.js';

const ratio = (value: number, baseline: number | null): number | null =>
  baseline === null || !Number.isFinite(baseline) || baseline === 0 ? null : value / baseline;
const perCore = (step: StepResult | undefined): number => (step ? step.arrived / Math.max(0.01, step.cpuSeconds) : NaN);
const rssPerNumber = (side: SideResult, step: StepResult | undefined): number => (step ? (step.rssMean - side.idleRss) / MB / SETTINGS.numbers : NaN);

export const report = (service: SideResult, floor: SideResult | undefined): void => {
  if (service.rates.length) measuredRows(service, floor);
  if (service.soak) soakRows(service.soak);
  for (const what of ['lost', 'duplicated'] as const) {
    reportResult({
      figure: `system: messages ${what} of ${service.totals.sent} sent (count; baseline: the floor's of ${floor?.totals.sent ?? 0})`,
      value: service.totals[what],
      baseline: floor ? floor.totals[what] : null,
      ratio: null,
      target: '0',
      met: service.totals[what] === 0,
    });
  }
};

const measuredRows = (service: SideResult, floor: SideResult | undefined): void => {
  const k = SETTINGS.numbers;
  SETTINGS.rates.forEach((rate, i) => {
    const s = service.rates[i]!;
    const f = floor?.rates[i];
    for (const [name, key] of [
      ['p50', 'p50'],
      ['p99', 'p99'],
      ['max', 'max'],
    ] as const) {
      reportResult({
        figure: `system: latency sim send → webhook 2xx, K=${k}, R=${rate} msg/s, ${name} (ms; baseline: the floor's send → messages.upsert)`,
        value: s[key],
        baseline: f ? f[key] : null,
        ratio: ratio(s[key], f ? f[key] : null),
        target: 'informational',
      });
    }
  });
  const sustained = service.best?.rate ?? 0;
  const floorSustained = floor?.best?.rate ?? null;
  const sustainedRatio = ratio(sustained, floorSustained);
  reportResult({
    figure: `system: highest rate sustained for ${SETTINGS.stepSeconds} s, K=${k} (msg/s; baseline: the floor's)`,
    value: sustained,
    baseline: floorSustained,
    ratio: sustainedRatio,
    target: 'ratio >= 0.40',
    met: sustainedRatio !== null && sustainedRatio >= 0.4,
  });
  if (service.half) {
    const floorP99 = floor?.half?.p99 ?? null;
    const r = ratio(service.half.p99, floorP99);
    reportResult({
      figure: `system: p99 latency at half the sustained rate, R=${service.half.rate} msg/s (ms; baseline: the floor's at the same R)`,
      value: service.half.p99,
      baseline: floorP99,
      ratio: r,
      target: 'ratio < 10',
      met: r !== null && r < 10,
    });
  }
  reportResult({
    figure: `system: messages per CPU second of worker + api at the sustained rate (msg/s per core; baseline: the floor process at its own)`,
    value: perCore(service.best),
    baseline: floor ? perCore(floor.best) : null,
    ratio: ratio(perCore(service.best), floor ? perCore(floor.best) : null),
    target: 'informational',
  });
  const top = SETTINGS.rates.length - 1;
  const rssService = rssPerNumber(service, service.rates[top]);
  const rssFloor = floor ? rssPerNumber(floor, floor.rates[top]) : null;
  const rssRatio = ratio(rssService, rssFloor);
  reportResult({
    figure: `system: worker RSS per number under traffic, K=${k}, R=${SETTINGS.rates[top]} msg/s (MB; baseline: the floor's)`,
    value: rssService,
    baseline: rssFloor,
    ratio: rssRatio,
    target: 'ratio <= 2',
    met: rssRatio !== null && rssRatio <= 2,
  });
};

const soakRows = (soak: SoakResult): void => {
  const slope = soak.slopeBytesPerHour / MB / (soak.numbers / 100);
  reportResult({
    figure: `system: soak RSS slope after warm-up, ${soak.numbers} numbers at ${soak.rate} msg/s for ${soak.minutes} min (MB per hour per 100 numbers)`,
    value: slope,
    baseline: null,
    ratio: null,
    target: '< 1',
    met: slope < 1,
  });
  for (const [what, bytesPerHour] of [
    ['heap in use', soak.heapSlopeBytesPerHour],
    ['RSS', soak.gcRssSlopeBytesPerHour],
  ] as const) {
    const perHundred = bytesPerHour / MB / (soak.numbers / 100);
    reportResult({
      figure: `system: soak slope after warm-up of the worker's ${what} after a forced full collection, ${soak.numbers} numbers at ${soak.rate} msg/s (MB per hour per 100 numbers)`,
      value: perHundred,
      baseline: null,
      ratio: null,
      target: '< 1',
      met: perHundred < 1,
    });
  }
  reportResult({
    figure: `system: soak latency p99, ${soak.numbers} numbers at ${soak.rate} msg/s (ms)`,
    value: soak.step.p99,
    baseline: null,
    ratio: null,
    target: 'informational',
  });
};

const row = (side: string, s: StepResult): string =>
  `${side.padEnd(8)} | ${String(s.rate).padStart(5)} | ${s.sentRate.toFixed(0).padStart(6)} | ${(s.arrivedInStep * 100).toFixed(1).padStart(6)} | ` +
  `${s.p50.toFixed(1).padStart(8)} | ${s.p99.toFixed(1).padStart(8)} | ${s.max.toFixed(1).padStart(8)} | ${(s.arrived / Math.max(0.01, s.cpuSeconds)).toFixed(0).padStart(9)} | ` +
  `${(s.rssMean / MB).toFixed(1).padStart(8)} | ${s.sustains ? 'yes' : s.simLimited ? 'sim-limited' : 'no'}`;

export const summary = (service: SideResult | undefined, floor: SideResult | undefined): void => {
  console.log('\nside     | R/s   | sent/s | in step % | p50 ms | p99 ms | max ms | msg/CPU s | RSS MB | sustains');
  for (const [name, side] of [
    ['service', service],
    ['floor', floor],
  ] as const) {
    if (!side) continue;
    for (const s of [...side.rates, ...side.steps, ...(side.half ? [side.half] : []), ...(side.soak ? [side.soak.step] : [])]) console.log(row(name, s));
    if (!side.rates.length) continue;
    console.log(
      `${name}: idle RSS ${(side.idleRss / MB).toFixed(1)} MB, linked ${SETTINGS.numbers} in ${side.linkSeconds.toFixed(1)} s, ` +
        `sustained ${side.best?.rate ?? 0}/s, sent ${side.totals.sent}, lost ${side.totals.lost}, duplicated ${side.totals.duplicated}`,
    );
  }
};
