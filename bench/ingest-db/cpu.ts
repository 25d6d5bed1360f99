import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU milliseconds (user + system) used so far by this process and by the database's backends. */
export interface CpuSample {
  node: number;
  postgres: number;
}

function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0; // not on Linux, or the backend is gone
  }
}

/**
 * The machine is shared, so wall-clock rates move with whatever else runs; CPU time per message
 * does not, and tells what this code costs. Backends are those connected to the bench database.
 */
export async function sampleCpu(db: DataSource, database: string, known: Map<number, number>): Promise<CpuSample> {
  const rows: { pid: number }[] = await db.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
  for (const { pid } of rows) known.set(pid, processCpuMs(pid));
  const usage = process.cpuUsage();
  let postgres = 0;
  for (const value of known.values()) postgres += value;
  return { node: (usage.user + usage.system) / 1000, postgres };
}

/** CPU milliseconds the Redis server has used so far (server-wide: other clients count too). */
export async function redisCpuMs(redis: { info(section: string): Promise<string> }): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}

/**
 * CPU milliseconds the hypervisor gave to other guests while this machine's processes wanted
 * to run (steal, over all cores). A shared VM's rates swing with it, so benchmarks print it.
 */
export function stealMs(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
    return (Number(fields[8] ?? 0) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
