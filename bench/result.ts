/**
 * The contract between a benchmark and `bench/run-all` (bench/README.md): each figure a benchmark
 * wants in bench/RESULTS.md is one line on stdout holding exactly one JSON object with `figure`
 * and `value`. run-all collects every such line, in order, and ignores all other output.
 */
export interface BenchResult {
  /** What was measured, with its unit: `ingest() throughput (msg/s)`. */
  figure: string;
  value: number;
  /** The same measure of the baseline, taken in the same run (null when the figure has none). */
  baseline: number | null;
  /** value / baseline, or the ratio the target is stated on (null when there is none). */
  ratio: number | null;
  /** The target in words, e.g. `>= 2000 msg/s` or `ratio >= 0.9`. */
  target: string;
  /** Whether the target is met (omit when the target is informational). */
  met?: boolean;
}

const round = (n: number | null): number | null => (n === null || !Number.isFinite(n) ? n : Number(n.toPrecision(4)));

/** Prints one result line for run-all. */
export function reportResult(result: BenchResult): void {
  console.log(JSON.stringify({ ...result, value: round(result.value), baseline: round(result.baseline), ratio: round(result.ratio) }));
}
