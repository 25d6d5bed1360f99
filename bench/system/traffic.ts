// One step of traffic into a system under test (the service, or the floor), and what it shows:
// the rate the simulator really sent, the rate that arrived meanwhile, the latency from each send
// to its arrival, whether that latency grew over the step, the CPU the system's processes used
// and their resident memory (sampled), after the step's messages have arrived (or stopped arriving).
import type { Ledger } from './ledger.js';
import { cpuOfAll, rssOf, sleep, wallNow } from './proc-stats.js';
import type { SimHandle } from './sim-handle.js';

export interface SystemUnderTest {
  name: string;
  sim: SimHandle;
  ledger: Ledger;
  phones: string[];
  /** Processes whose CPU counts (service: worker and api; floor: its process). */
  cpuPids: number[];
  /** The process whose resident memory counts (service: the worker). */
  rssPid: number;
}

export interface TrafficShape {
  contacts: number;
  mediaShare: number;
  imageBytes: number;
}

export interface StepResult {
  /** The step's number in the ledger. */
  step: number;
  rate: number;
  sent: number;
  sentRate: number;
  /** Share of the messages that had arrived 1 s after the last send. */
  arrivedInStep: number;
  /** The same share of the texts alone and of the images alone: a step sustains only when both kept up. */
  arrivedInStepText: number;
  arrivedInStepMedia: number;
  arrived: number;
  missing: number;
  p50: number;
  p99: number;
  max: number;
  /** p99 of the texts alone, and of the images alone (their webhook waits for the download). */
  p99Text: number;
  p99Media: number;
  /** Median latency of the first and the last third of the step's messages (by send time). */
  firstThirdP50: number;
  lastThirdP50: number;
  growing: boolean;
  /** The simulator did not send at the rate asked (it, not the system, was the limit). */
  simLimited: boolean;
  sustains: boolean;
  cpuSeconds: number;
  rssMean: number;
  rssSamples: [at: number, rss: number][];
}

let nextStep = 1;

const quantile = (sorted: readonly number[], q: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN);

/** Waits until every message of the step arrived, or none arrived for `quietMs`, or `maxMs` passed. */
const drain = async (ledger: Ledger, step: number, sent: number, quietMs: number, maxMs: number): Promise<void> => {
  const deadline = Date.now() + maxMs;
  let last = -1;
  let lastChange = Date.now();
  while (Date.now() < deadline) {
    const arrived = ledger.arrivedOfStep(step);
    if (arrived >= sent) return;
    if (arrived !== last) [last, lastChange] = [arrived, Date.now()];
    else if (Date.now() - lastChange > quietMs) return;
    await sleep(100);
  }
};

export const runStep = async (
  sut: SystemUnderTest,
  shape: TrafficShape,
  traffic: { rate: number; seconds?: number; count?: number },
  options: { sampleEveryMs?: number; quiet?: boolean } = {},
): Promise<StepResult> => {
  const step = nextStep++;
  sut.sim.ledger = sut.ledger;
  const cpuBefore = cpuOfAll(sut.cpuPids);
  const rssSamples: [number, number][] = [];
  const sampler = setInterval(() => rssSamples.push([wallNow(), rssOf(sut.rssPid)]), options.sampleEveryMs ?? 1000);
  const done = await sut.sim.traffic({ step, phones: sut.phones, rate: traffic.rate, seconds: traffic.seconds, count: traffic.count, ...shape });
  clearInterval(sampler);
  // The send reports of the last 50 ms come in a moment later.
  await sleep(200);
  const inStep = (media: boolean | undefined): number => {
    const list = sut.ledger.ofStep(step).filter((e) => media === undefined || e.media === media);
    // A kind the step did not send (BENCH_SYSTEM_MEDIA_SHARE=0) kept up.
    return list.length ? list.filter((e) => e.arrivals > 0 && e.firstAt <= done.lastAt + 1000).length / list.length : 1;
  };
  const [arrivedInStep, arrivedInStepText, arrivedInStepMedia] = [inStep(undefined), inStep(false), inStep(true)];
  await drain(sut.ledger, step, done.sent, 30_000, 300_000);
  const cpuSeconds = cpuOfAll(sut.cpuPids) - cpuBefore;
  const entries = sut.ledger.ofStep(step);
  const latency = (list: typeof entries): number[] =>
    list
      .filter((e) => e.arrivals > 0)
      .map((e) => e.firstAt - e.sentAt)
      .sort((a, b) => a - b);
  const all = latency(entries);
  const third = Math.floor(entries.length / 3);
  const firstThirdP50 = quantile(latency(entries.slice(0, third)), 0.5);
  const lastThirdP50 = quantile(latency(entries.slice(entries.length - third)), 0.5);
  const expected = traffic.count ?? Math.round(traffic.rate * (traffic.seconds ?? 0));
  const sentRate = done.sent / Math.max(0.001, (done.lastAt - done.firstAt) / 1000);
  const simLimited = done.sent < expected * 0.99 || (expected > traffic.rate && sentRate < traffic.rate * 0.95);
  // A backlog that grows over the step shows as a later third slower than the first.
  const growing = lastThirdP50 > 1.25 * firstThirdP50 + 50;
  const missing = done.sent - all.length;
  const result: StepResult = {
    step,
    rate: traffic.rate,
    sent: done.sent,
    sentRate,
    arrivedInStep,
    arrivedInStepText,
    arrivedInStepMedia,
    arrived: all.length,
    missing,
    p50: quantile(all, 0.5),
    p99: quantile(all, 0.99),
    p99Text: quantile(latency(entries.filter((e) => !e.media)), 0.99),
    p99Media: quantile(latency(entries.filter((e) => e.media)), 0.99),
    max: all.length ? all[all.length - 1]! : NaN,
    firstThirdP50,
    lastThirdP50,
    growing,
    simLimited,
    // Per kind: the images (a tenth of the traffic) could fall minutes behind with 95 % of all in step.
    sustains: !simLimited && !growing && missing === 0 && arrivedInStepText >= 0.95 && arrivedInStepMedia >= 0.95,
    cpuSeconds,
    rssMean: rssSamples.length ? rssSamples.reduce((s, [, r]) => s + r, 0) / rssSamples.length : rssOf(sut.rssPid),
    rssSamples,
  };
  if (done.failed) console.log(`  ${sut.name}: ${done.failed} sends failed (${done.firstError})`);
  if (!options.quiet) console.log(`  ${sut.name} ${describe(result)}`);
  return result;
};

export const describe = (r: StepResult): string =>
  `R=${r.rate}/s: sent ${r.sent} at ${r.sentRate.toFixed(0)}/s${r.simLimited ? ' (simulator-limited)' : ''}, ` +
  `${(r.arrivedInStep * 100).toFixed(1)} % in step (texts ${(r.arrivedInStepText * 100).toFixed(1)}, images ${(r.arrivedInStepMedia * 100).toFixed(1)}), ${r.missing} missing; latency p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (texts ${r.p99Text.toFixed(1)}, images ${r.p99Media.toFixed(1)}), ` +
  `max ${r.max.toFixed(1)} ms (p50 first/last third ${r.firstThirdP50.toFixed(1)}/${r.lastThirdP50.toFixed(1)} ms${r.growing ? ', growing' : ''}); ` +
  `CPU ${r.cpuSeconds.toFixed(1)} s (${(r.arrived / Math.max(0.01, r.cpuSeconds)).toFixed(0)} msg per CPU second); ` +
  `RSS ${(r.rssMean / 1024 / 1024).toFixed(1)} MB — ${r.sustains ? 'sustains' : 'does not sustain'}`;

/** One message from every contact of every number, unmeasured: sessions, contacts and chats exist afterwards. */
export const warmUp = async (sut: SystemUnderTest, shape: TrafficShape, rate: number): Promise<void> => {
  const r = await runStep(sut, shape, { rate, count: sut.phones.length * shape.contacts }, { quiet: true });
  console.log(`  ${sut.name} warm-up: ${r.sent} messages (every contact once) at ${rate}/s, ${r.missing} missing`);
};

/**
 * The highest rate sustained for a step: from `start`, up by `factor` while it sustains (down by
 * half while the start does not), then once between the last rate sustained and the first not.
 */
export const searchSustained = async (
  sut: SystemUnderTest,
  shape: TrafficShape,
  options: { start: number; factor: number; max: number; seconds: number },
): Promise<{ best: StepResult | undefined; steps: StepResult[] }> => {
  const steps: StepResult[] = [];
  let best: StepResult | undefined;
  let failedAt: number | undefined;
  let rate = options.start;
  for (;;) {
    await sleep(2000);
    const r = await runStep(sut, shape, { rate, seconds: options.seconds });
    steps.push(r);
    if (r.sustains) {
      best = r;
      if (failedAt !== undefined) break;
      rate = Math.round(rate * options.factor);
      if (rate > options.max) break;
    } else if (best === undefined) {
      failedAt = rate;
      rate = Math.round(rate / 2);
      if (rate < 5) break;
    } else {
      failedAt = rate;
      break;
    }
  }
  if (best && failedAt !== undefined && failedAt > best.rate) {
    const mid = Math.round(Math.sqrt(best.rate * failedAt));
    if (mid > best.rate * 1.05 && mid < failedAt) {
      await sleep(2000);
      const r = await runStep(sut, shape, { rate: mid, seconds: options.seconds });
      steps.push(r);
      if (r.sustains) best = r;
    }
  }
  return { best, steps };
};
