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
