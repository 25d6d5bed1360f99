// Shared by the bench/sessions programs: the simulator in a child process (its memory is not
// counted) and memory figures after a full GC (node runs with --expose-gc).
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const settle = async (): Promise<{ rss: number; heap: number }> => {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 300));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
};

export const startSimulator = async (port: number): Promise<ChildProcess> => {
  const main = fileURLToPath(new URL('../../test/whatsapp-sim/main.js', import.meta.url));
  const child = fork(main, [], { env: { ...process.env, SIM_PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  while (!out.includes('control API')) await once(child.stdout!, 'data');
  return child;
};
