import type { EventEmitter } from 'node:events';
import { DelayedError, type Job, type Worker } from 'bullmq';

/** Emitted on a worker when one of its jobs was parked (BullMQ itself emits nothing then). */
export const JOB_PARKED = 'job-parked';

/**
 * Parks the job being processed until `at` (ms since the epoch): it goes back to the delayed set
 * under its own id, neither completed nor failed, and runs again then. Call it as the processor's
 * last step (it throws BullMQ's DelayedError, which ends the processing). QueueLifecycle hears
 * JOB_PARKED and stops counting the job as running, so a shutdown does not wait for it.
 */
export async function parkJob(worker: Worker, job: Job, at: number, token: string | undefined): Promise<never> {
  try {
    await job.moveToDelayed(Math.round(at), token);
  } finally {
    // Parked or not (its key gone with a flushed Redis), this processing is over.
    (worker as unknown as EventEmitter).emit(JOB_PARKED, job);
  }
  throw new DelayedError();
}
