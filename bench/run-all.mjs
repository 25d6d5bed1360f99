// bench/run-all: runs every benchmark (each `bench:<name>` script of package.json) one after the
// other, collects the result lines they print (bench/README.md, "The result contract") and writes
// one table to bench/RESULTS.md, with the machine it ran on. Usage:
//   bench/run-all                      every benchmark
//   BENCH_SCRIPTS=auth,ingest bench/run-all   those whose script name contains one of the words
// A run of some benchmarks replaces their rows in bench/RESULTS.md and keeps the others' rows, with the
// line that says when those ran.
// Each benchmark keeps its own settings (BENCH_* variables); its output is shown as it runs.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release, platform } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench', 'RESULTS.md');
// Per benchmark. bench:system with its defaults (60 s steps, a 30-minute soak over 200 numbers) ran
// 89 minutes on the 2-core machine on 2026-12-03: two hours leave it room.
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 7200) * 1000;

/** A stdout line that is one JSON object with `figure` and `value` is a result row. */
export function parseResult(line) {
  const text = line.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  try {
    const row = JSON.parse(text);
    return row && typeof row === 'object' && typeof row.figure === 'string' && typeof row.value === 'number' ? row : undefined;
  } catch {
    return undefined;
  }
}

function allBenchmarks() {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts ?? {};
  return Object.keys(scripts).filter((name) => name.startsWith('bench:') && name !== 'bench:all');
}

function benchmarks() {
  const only = (process.env.BENCH_SCRIPTS ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  return allBenchmarks().filter((name) => only.length === 0 || only.some((word) => name.includes(word)));
}

/**
 * What an earlier bench/RESULTS.md holds of the benchmarks this run leaves out: their table rows, their
 * run times, and when they ran (its "when" line, or the "rows of" lines an earlier partial run kept).
 */
export function earlierResults(text, ran) {
  const lines = text.split('\n');
  const scriptOf = (line) => /^\| `(bench:[^`]+)` \|/.exec(line)?.[1];
  const rows = lines.filter((line) => scriptOf(line) && !ran.includes(scriptOf(line)));
  const kept = new Set(rows.map(scriptOf));
  const times = [...(lines.find((line) => line.startsWith('Run times: ')) ?? '').matchAll(/`(bench:[^`]+)` (\d+) s/g)]
    .filter((m) => kept.has(m[1]))
    .map((m) => `\`${m[1]}\` ${m[2]} s`);
  const names = (list) => list.map((k) => `\`${k}\``).join(', ');
  const when = [];
  const dated = new Set();
  for (const line of lines) {
    const older = /^- rows of (.+) from an earlier run: (.+)$/.exec(line);
    if (!older) continue;
    const still = [...older[1].matchAll(/`(bench:[^`]+)`/g)].map((m) => m[1]).filter((k) => kept.has(k));
    still.forEach((k) => dated.add(k));
    if (still.length) when.push(`- rows of ${names(still)} from an earlier run: ${older[2]}`);
  }
  const last = lines.find((line) => line.startsWith('- when: '));
  const lastMachine = lines.find((line) => line.startsWith('- machine: '));
  const ofLast = [...kept].filter((k) => !dated.has(k));
  if (last && ofLast.length) {
    const ran = last.slice('- when: '.length).replace(/ \(this run: .*\)$/, '');
    when.unshift(`- rows of ${names(ofLast)} from an earlier run: ${ran}${lastMachine ? `, on ${lastMachine.slice('- machine: '.length)}` : ''}`);
  }
  return { rows, kept, times, when };
}

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const rows = [];
    let pending = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const row = parseResult(line);
        if (row) rows.push(row);
      }
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const row = parseResult(pending);
      if (row) rows.push(row);
      resolve({ script, rows, code, signal, seconds: (Date.now() - started) / 1000 });
    });
  });
}

const fmt = (n) =>
  n === null || n === undefined ? '' : Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumSignificantDigits: 4 });
const verdict = (row) => (row.met === true ? 'met' : row.met === false ? '**missed**' : '');

function machine(loadBefore, scope) {
  const version = (command, args) => {
    try {
      return execFileSync(command, args, { encoding: 'utf8' }).trim().split('\n')[0];
    } catch {
      return 'unknown';
    }
  };
  const cpu = cpus();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout
  }
  return [
    `- when: ${new Date().toISOString()}, commit ${commit}${scope}`,
    `- machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()}`,
    `- software: Node.js ${process.version}, ${version('psql', ['--version'])}, ${version('redis-server', ['--version'])}`,
    `- load average (1 min) before: ${loadBefore.toFixed(2)}, after: ${loadavg()[0].toFixed(2)} (a shared machine: compare ratios, which cancel most of it, before absolute figures)`,
  ].join('\n');
}

async function main() {
  const loadBefore = loadavg()[0];
  const results = [];
  const selected = benchmarks();
  let earlier = { rows: [], kept: new Set(), times: [], when: [] };
  try {
    if (selected.length < allBenchmarks().length) earlier = earlierResults(readFileSync(OUT, 'utf8'), selected);
  } catch {
    // no earlier bench/RESULTS.md
  }
  for (const script of selected) {
    console.log(`\n=== ${script} ===`);
    results.push(await run(script));
  }

  const lines = [
    '# Benchmark results',
    '',
    'Written by `bench/run-all` (bench/README.md); do not edit by hand. Each benchmark measures its',
    'baseline in the same run; the ratio is the figure over the baseline unless the row says otherwise.',
    '',
    machine(loadBefore, earlier.kept.size ? ` (this run: ${selected.map((k) => `\`${k}\``).join(', ')})` : ''),
    ...earlier.when,
    '',
    '| benchmark | figure | value | baseline | ratio | target | |',
    '|---|---|---|---|---|---|---|',
  ];
  const ranRows = new Map();
  for (const result of results) {
    const own = [];
    ranRows.set(result.script, own);
    if (result.code !== 0 || result.signal) {
      own.push(`| \`${result.script}\` | **failed** (${result.signal ?? `exit ${result.code}`} after ${result.seconds.toFixed(0)} s) | | | | | |`);
    }
    if (result.rows.length === 0 && result.code === 0) own.push(`| \`${result.script}\` | (printed no result line) | | | | | |`);
    for (const row of result.rows) {
      own.push(
        `| \`${result.script}\` | ${row.figure} | ${fmt(row.value)} | ${fmt(row.baseline)} | ${fmt(row.ratio)} | ${row.target ?? ''} | ${verdict(row)} |`,
      );
    }
  }
  // In package.json's order, each benchmark's rows from this run or, left out of it, the earlier ones.
  for (const script of allBenchmarks()) lines.push(...(ranRows.get(script) ?? earlier.rows.filter((row) => row.startsWith(`| \`${script}\` |`))));
  const times = [...results.map((r) => `\`${r.script}\` ${r.seconds.toFixed(0)} s`), ...earlier.times];
  lines.push('', `Run times: ${times.join(', ')}.`, '');
  writeFileSync(OUT, lines.join('\n'));
  console.log(`\nbench/run-all: wrote ${OUT}`);
  process.exitCode = results.some((r) => r.code !== 0 || r.signal) ? 1 : 0;
}

// Run when executed (bench/run-all), not when imported (for parseResult and earlierResults).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
