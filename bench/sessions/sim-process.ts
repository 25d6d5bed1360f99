// Shared by the bench/sessions programs: the simulator in a child process (its memory is not
// counted), memory figures after a full GC (node runs with --expose-gc), CPU time of both
// processes, and optional CPU profiles (BENCH_CPU_PROFILE=<dir>).
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROFILE_DIR = process.env.BENCH_CPU_PROFILE || undefined;

export const settle = async (): Promise<{ rss: number; heap: number }> => {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 300));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
};

/** The simulator in a child process; with BENCH_CPU_PROFILE it writes its own profile on exit. */
export const startSimulator = async (port: number): Promise<ChildProcess> => {
  const main = fileURLToPath(new URL('../../test/whatsapp-sim/main.js', import.meta.url));
  const execArgv = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR, '--cpu-prof-name', 'simulator.cpuprofile'] : [];
  const child = fork(main, [], { env: { ...process.env, SIM_PORT: String(port) }, execArgv, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  while (!out.includes('control API')) await once(child.stdout!, 'data');
  return child;
};

/** Stops the simulator and waits for it (so its CPU profile is written). */
export const stopSimulator = async (child: ChildProcess): Promise<void> => {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
};

/** CPU seconds (user + system) a process has used so far: this one, or a child by pid. */
export const cpuSeconds = (pid?: number): number => {
  if (pid === undefined) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  }
  // /proc/<pid>/stat: utime and stime are fields 14 and 15, in clock ticks (100 per second).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Profiles this process while `work` runs, when BENCH_CPU_PROFILE is set. */
export const profiled = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
};
