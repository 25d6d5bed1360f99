import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type Job, Queue } from 'bullmq';
import { AppConfig } from '../infra/config/app-config.js';
import { JOB_STATES } from '../infra/queue/queue-metrics.js';
import { QueueName } from '../infra/queue/queue-names.js';
import { OperatorError } from './operator.service.js';

export type JobState = (typeof JOB_STATES)[number];

export interface QueueSummary {
  name: string;
  paused: boolean;
  counts: Record<JobState, number>;
}

export interface JobOutput {
  id: string;
  name: string;
  state: string;
  data: unknown;
  attempts_made: number;
  max_attempts: number;
  failed_reason: string | null;
  /** The first lines of the last error's stack, where the failure happened. */
  stacktrace: string[];
  created_at: string;
  processed_at: string | null;
  finished_at: string | null;
}

const iso = (ms: number | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/**
 * The BullMQ queues as platform operators see them (`npm run cli -- queues|queue-jobs|…`): counts,
 * failed jobs with their reasons, retry and removal. Queues are opened on first use, on a
 * connection that gives up after a few seconds, so a command never hangs on an unreachable Redis
 * (the service's own queue connections retry forever).
 */
@Injectable()
export class QueueInspector implements OnApplicationShutdown {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(private readonly config: AppConfig) {}

  static queueName(value: string): QueueName | undefined {
    return Object.values(QueueName).find((name) => name === value);
  }

  async summary(): Promise<QueueSummary[]> {
    return Promise.all(
      Object.values(QueueName).map(async (name) => {
        const queue = this.queue(name);
        const [counts, paused] = await Promise.all([queue.getJobCounts(...JOB_STATES), queue.isPaused()]);
        return { name, paused, counts: Object.fromEntries(JOB_STATES.map((state) => [state, counts[state] ?? 0])) as Record<JobState, number> };
      }),
    );
  }

  /** The newest `limit` jobs in `state` (failed ones with their reasons). */
  async jobs(name: QueueName, state: JobState, limit: number): Promise<JobOutput[]> {
    const jobs = await this.queue(name).getJobs([state], 0, limit - 1, false);
    return Promise.all(jobs.filter((job): job is Job => Boolean(job)).map((job) => this.output(job)));
  }

  /** Puts failed jobs back in the queue (their attempts start over). `ids` empty: every failed job. */
  async retry(name: QueueName, ids: string[]): Promise<{ queue: QueueName; retried: string[] | number }> {
    const queue = this.queue(name);
    if (ids.length === 0) {
      const before = await queue.getFailedCount();
      await queue.retryJobs({ state: 'failed' });
      return { queue: name, retried: before };
    }
    const retried: string[] = [];
    for (const id of ids) {
      const job = await this.find(queue, id);
      const state = await job.getState();
      if (state !== 'failed') throw new OperatorError(`job ${id} of ${name} is ${state}: only failed jobs can be retried`);
      await job.retry('failed');
      retried.push(id);
    }
    return { queue: name, retried };
  }

  async remove(name: QueueName, ids: string[]): Promise<{ queue: QueueName; removed: string[] }> {
    const queue = this.queue(name);
    const removed: string[] = [];
    for (const id of ids) {
      const job = await this.find(queue, id);
      const state = await job.getState();
      if (state === 'active') throw new OperatorError(`job ${id} of ${name} is active: a running job cannot be removed (wait, or retry later)`);
      await job.remove();
      removed.push(id);
    }
    return { queue: name, removed };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close().catch(() => queue.disconnect())));
  }

  private async find(queue: Queue, id: string): Promise<Job> {
    const job = await queue.getJob(id);
    if (!job) throw new OperatorError(`job not found: ${queue.name}/${id}`);
    return job;
  }

  private async output(job: Job): Promise<JobOutput> {
    return {
      id: job.id ?? '',
      name: job.name,
      state: await job.getState(),
      data: job.data as unknown,
      attempts_made: job.attemptsMade,
      max_attempts: job.opts.attempts ?? 1,
      failed_reason: job.failedReason || null,
      stacktrace: (job.stacktrace?.at(-1) ?? '').split('\n').slice(0, 4).filter(Boolean),
      created_at: new Date(job.timestamp).toISOString(),
      processed_at: iso(job.processedOn),
      finished_at: iso(job.finishedOn),
    };
  }

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        prefix: `${this.config.redisPrefix}:bull`,
        connection: {
          url: this.config.redisUrl,
          // Fail the command instead of waiting for Redis to come back.
          maxRetriesPerRequest: 1,
          connectTimeout: 3_000,
          retryStrategy: (attempt: number) => (attempt > 2 ? null : 300),
          disconnectTimeout: 200,
        },
      });
      // Errors reach the command that failed; the listener keeps them off stderr.
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }
}
