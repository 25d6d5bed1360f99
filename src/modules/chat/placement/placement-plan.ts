import { createHash } from 'node:crypto';

/** A live worker as the membership list has it. */
export interface PlacementWorker {
  id: string;
  /** CHAT_MAX_SESSIONS_PER_WORKER of that process: its weight and its cap. */
  capacity: number;
}

/** Where each number lives: its home worker, or null when every worker is full (unplaced). */
export type PlacementPlan = ReadonlyMap<string, string | null>;

// How far above its share of the numbers a worker may be loaded before the next choice is used:
// keeps the spread even (bounded-load rendezvous hashing) while most numbers keep their home
// when a worker comes or goes.
const LOAD_SLACK = 1.1;

/** A uniform draw in (0, 1) from the pair: the same on every process. */
function draw(numberId: string, workerId: string): number {
  const digest = createHash('sha256').update(numberId).update('\0').update(workerId).digest();
  // 52 bits of the hash; +1 / 2^52+2 keeps it strictly inside (0, 1).
  const value = digest.readUIntBE(0, 6) * 2 ** 4 + (digest[6]! >> 4);
  return (value + 1) / (2 ** 52 + 2);
}

/** The workers in the order `numberId` prefers them (weighted rendezvous: capacity / -ln(u)). */
export function preference(numberId: string, workers: readonly PlacementWorker[]): PlacementWorker[] {
  return workers
    .map((worker) => ({ worker, score: worker.capacity / -Math.log(draw(numberId, worker.id)) }))
    .sort((a, b) => b.score - a.score || a.worker.id.localeCompare(b.worker.id))
    .map((entry) => entry.worker);
}

/**
 * The home of every number among the live workers, the same on every process that reads the same
 * numbers and members: each number, in a fixed order, goes to the first worker of its preference
 * that has room, where room is the worker's cap and at most LOAD_SLACK times its share of the
 * numbers (shares by capacity). Numbers left when every worker is full have no home.
 */
export function placementPlan(numberIds: readonly string[], workers: readonly PlacementWorker[]): PlacementPlan {
  const plan = new Map<string, string | null>();
  const usable = workers.filter((worker) => worker.capacity > 0);
  const weight = usable.reduce((sum, worker) => sum + worker.capacity, 0);
  const room = new Map<string, number>(
    usable.map((worker) => [worker.id, Math.min(worker.capacity, Math.ceil((numberIds.length * worker.capacity * LOAD_SLACK) / weight))]),
  );
  const assigned = new Map(usable.map((worker) => [worker.id, 0]));
  const place = (numberId: string, fits: (worker: PlacementWorker) => boolean): void => {
    const home = preference(numberId, usable).find(fits);
    if (home) assigned.set(home.id, assigned.get(home.id)! + 1);
    plan.set(numberId, home?.id ?? null);
  };
  const sorted = [...numberIds].sort();
  for (const numberId of sorted) place(numberId, (worker) => assigned.get(worker.id)! < room.get(worker.id)!);
  // Rounding and caps can leave numbers over while some worker is under its cap: those fill up.
  for (const numberId of sorted) if (plan.get(numberId) === null) place(numberId, (worker) => assigned.get(worker.id)! < worker.capacity);
  return plan;
}
