import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { percentile } from '../percentile.js';

/** What one fdatasync of 8 KB took on the database's disk while a phase ran. */
export interface FlushFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Flushes that took 20 ms or more, each as "ms at s" (seconds into the phase). */
  stalls: string[];
}

export interface FlushProbe {
  stop(): Promise<FlushFigures>;
}

/**
 * A durable COMMIT waits for Postgres's WAL flush, so a call's latency can be no better than the
 * disk's fdatasync at that moment. On this VM the disk flushes in about 0.2 ms, but under write
 * load single flushes take 50–120 ms; every call in flight then waits that long. The probe
 * flushes its own small file next to the database's files (every 2 ms, on libuv's threads, so
 * node's loop is not blocked) and reports what the disk did during the phase, so a p99 can be
 * read against it. Only where the database's data directory is on this machine and writable;
 * otherwise null.
 */
export async function startFlushProbe(db: DataSource): Promise<FlushProbe | null> {
  let dir: string;
  try {
    const [row] = await db.query('SHOW data_directory');
    dir = row.data_directory as string;
  } catch {
    return null; // not a superuser: the data directory is not ours to know
  }
  const path = join(dir, '..', `bench-flush-probe-${process.pid}`);
  const file = await open(path, 'w').catch(() => null);
  if (!file) return null;
  const block = Buffer.alloc(8192, 1);
  const latencies: number[] = [];
  const stalls: string[] = [];
  const started = performance.now();
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      await file.write(block, 0, block.length, (i % 1000) * block.length);
      const t0 = performance.now();
      await file.datasync();
      const ms = performance.now() - t0;
      latencies.push(ms);
      if (ms >= 20) stalls.push(`${ms.toFixed(0)} ms at ${((t0 - started) / 1000).toFixed(1)} s`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await file.close();
      await unlink(path).catch(() => undefined);
      latencies.sort((a, b) => a - b);
      return { count: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? 0, stalls };
    },
  };
}
