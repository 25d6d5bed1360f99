// What the kernel says about a process: CPU seconds (user + system) and resident memory, read
// from /proc so the processes measured need no instrumentation of their own.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { waitFor as poll } from '../../test/faults/support/ports.js';

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) process `pid` has used so far; 0 once it is gone. */
export const cpuOf = (pid: number): number => {
  try {
    // /proc/<pid>/stat: utime and stime are fields 14 and 15 (after the command in parentheses).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
};

/** The sum of cpuOf over several processes. */
export const cpuOfAll = (pids: readonly number[]): number => pids.reduce((sum, pid) => sum + cpuOf(pid), 0);

/** Resident memory of process `pid` in bytes (VmRSS); 0 once it is gone. */
export const rssOf = (pid: number): number => {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export const MB = 1024 * 1024;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The fault suite's poll (test/faults/support/ports.ts), with a minute's patience by default. */
export const waitFor = <T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, intervalMs = 100): Promise<T> =>
  poll(what, check, timeoutMs, intervalMs);

/** A wall-clock time in ms with sub-ms resolution, comparable across processes of this machine. */
export const wallNow = (): number => performance.timeOrigin + performance.now();
