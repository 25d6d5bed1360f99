import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Job, Queue } from 'bullmq';
import { throttledWarning } from '../logging/throttled-warning.js';
import { withinScrapeTimeout } from '../metrics/collect-timeout.js';
import { MetricsRegistry } from '../metrics/metrics.registry.js';
import { QueueName } from './queue-names.js';

/** The job states `inbox_queue_jobs` reports (BullMQ's names). */
export const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'] as const;

/**
 * Queue metrics:
 * - `inbox_queue_jobs{queue,state}`: how many jobs each queue holds per state, read from Redis at
 *   scrape time, so it is the whole cluster's figure (the same from every process);
 * - `inbox_queue_jobs_processed_total{queue,outcome}` and `inbox_queue_job_duration_seconds`:
 *   what this process's workers did (`completed`, `retried`: failed with attempts left, `failed`:
 *   failed for good), counted by QueueLifecycle.
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  private readonly warn = throttledWarning(new Logger('Metrics'));
  private readonly processed;
  private readonly duration;

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly moduleRef: ModuleRef,
  ) {
    this.processed = metrics.counter({
      name: 'inbox_queue_jobs_processed_total',
      help: "Jobs this process's workers finished, by queue and outcome (completed, retried, failed)",
      labelNames: ['queue', 'outcome'],
    });
    this.duration = metrics.histogram({
      name: 'inbox_queue_job_duration_seconds',
      help: "Run time of the jobs this process's workers finished, by queue",
      labelNames: ['queue'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
    });
  }

  onModuleInit(): void {
    const queues = Object.values(QueueName).map((name) => this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
    const warn = this.warn;
    this.metrics.gauge({
      name: 'inbox_queue_jobs',
      help: 'Jobs in each queue by state, cluster-wide (read from Redis at scrape time)',
      labelNames: ['queue', 'state'],
      async collect() {
        this.reset();
        await Promise.all(
          queues.map(async (queue) => {
            try {
              const counts = await withinScrapeTimeout(queue.getJobCounts(...JOB_STATES));
              for (const state of JOB_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
            } catch (error) {
              // No sample rather than a wrong one: absent series are what alerting expects then.
              warn(`queue ${queue.name} counts`, error as Error);
            }
          }),
        );
      },
    });
  }

  /** A job finished in this process: `error` unset when it completed. */
  finished(queue: string, job: Job, error?: Error): void {
    const outcome = !error ? 'completed' : job.attemptsMade < (job.opts.attempts ?? 1) ? 'retried' : 'failed';
    this.processed.inc({ queue, outcome });
    if (job.processedOn && job.finishedOn) this.duration.observe({ queue }, Math.max(0, job.finishedOn - job.processedOn) / 1000);
  }
}
