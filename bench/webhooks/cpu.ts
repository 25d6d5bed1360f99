import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0; // not on Linux, or the process is gone
  }
}

/** CPU ms so far of this process, of the database's client backends, and of its autovacuum workers. */
export interface CpuSample {
  node: number;
  postgres: number;
  vacuum: number;
}

/**
 * The machine is shared, so wall-clock rates move with whatever else runs; CPU time per item
 * does not. Backends are those connected to the bench database, statements apart from autovacuum
 * (which the row churn of a run starts at moments of its own choosing).
 */
export async function sampleCpu(db: DataSource, database: string, known: Map<number, { ms: number; vacuum: boolean }>): Promise<CpuSample> {
  const rows: { pid: number; backend_type: string }[] = await db.query('SELECT pid, backend_type FROM pg_stat_activity WHERE datname = $1', [database]);
  for (const { pid, backend_type } of rows) known.set(pid, { ms: processCpuMs(pid), vacuum: backend_type !== 'client backend' });
  const usage = process.cpuUsage();
  let postgres = 0;
  let vacuum = 0;
  for (const value of known.values()) {
    if (value.vacuum) vacuum += value.ms;
    else postgres += value.ms;
  }
  return { node: (usage.user + usage.system) / 1000, postgres, vacuum };
}
