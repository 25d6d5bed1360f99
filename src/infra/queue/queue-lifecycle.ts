import type { EventEmitter } from 'node:events';
import { BullRegistrar, WorkerHost } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job, Worker } from 'bullmq';
import { AppConfig } from '../config/app-config.js';
import { throttledWarning } from '../logging/throttled-warning.js';
import { QueueMetrics } from './queue-metrics.js';
import { JOB_PARKED } from './park-job.js';

/**
 * What @nestjs/bullmq leaves to the application:
 * - ROLE. Processors (`@Processor` classes) start only in a process that runs workers (`all` or
 *   `worker`): QueueModule turns the library's automatic registration off and this starts it.
 *   An `api` process only enqueues. (Queue-event listeners are registered together with the
 *   workers, so they too run only where workers do.)
 * - Shutdown order. It closes workers in `onApplicationShutdown`, the same phase in which the
 *   database pool and the shared Redis connection close; which goes first depends on the module
 *   graph, so a job still running could lose its connections. Closing the workers in
 *   `beforeApplicationShutdown` stops them taking new jobs and waits for the active ones while every
 *   connection is certainly open (see there why by force). (BullMQ's `close()` is idempotent: the
 *   library's later call is harmless.)
 * - Connection errors. A worker without an `error` listener prints every failed reconnect with a
 *   stack trace to stderr; these are logged as one structured line, at most once a minute (queues
 *   get theirs at birth: LoggedQueue).
 */
// Long enough for a normal job to finish; the process gives up on everything after 25 s.
const CLOSE_GRACE_MS = 15_000;
// Once no processor runs: how long the jobs just finished may take to be recorded (one Redis call each).
const SETTLE_MS = 1000;

@Injectable()
export class QueueLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Queues');
  /** Jobs running in this process's workers right now (`<queue>:<job id>`). */
  private readonly active = new Set<string>();
  /** Processor calls running right now in this process's workers (exact: counted around the call). */
  private running = 0;
  private readonly warn = throttledWarning(this.logger);

  constructor(
    private readonly config: AppConfig,
    private readonly registrar: BullRegistrar,
    private readonly discovery: DiscoveryService,
    private readonly metrics: QueueMetrics,
  ) {}

  onModuleInit(): void {
    if (!this.config.runsWorkers) return;
    // Before registering: the library binds each host's `process` when it creates the worker.
    for (const host of this.hosts()) this.countRuns(host);
    this.registrar.register();
    for (const worker of this.workers()) {
      worker.on('error', (error: Error) => this.warn(`worker ${worker.name}`, error));
      const key = (job: Job | undefined): string => `${worker.name}:${job?.id ?? ''}`;
      worker.on('active', (job) => this.active.add(key(job)));
      // 'failed' also fires for a job that never became active (e.g. a missing processor), and a
      // parked job (moved back to the delayed set) ends with neither event: a set of ids, not a
      // counter, so no event is counted twice or missed.
      worker.on('completed', (job) => {
        this.active.delete(key(job));
        this.metrics.finished(worker.name, job);
      });
      worker.on('failed', (job, error) => {
        this.active.delete(key(job));
        if (job) this.metrics.finished(worker.name, job, error);
      });
      (worker as unknown as EventEmitter).on(JOB_PARKED, (job: Job) => this.active.delete(key(job)));
    }
  }

  /**
   * BullMQ's graceful close waits on Redis (it interrupts the blocking fetch and waits for the
   * connection's end), so while Redis is unreachable, or while a worker's connections are still
   * reconnecting after an outage, it never ends. So the service waits for the jobs in flight
   * itself and then closes every worker by force, which does not wait on Redis: while a processor
   * runs (at most CLOSE_GRACE_MS), then at most SETTLE_MS for the jobs just finished to be
   * recorded. Processor calls are counted around the call, not from BullMQ's events: a job whose
   * completion could not be recorded (its lock lost, Redis flushed) emits neither `completed` nor
   * `failed`, and counted from events it would hold every later shutdown for the whole grace.
   * A job cut off by the deadline, or fetched in the last instant, could not be recorded: BullMQ
   * hands it out again once its lock expires (handlers are idempotent).
   */
  async beforeApplicationShutdown(): Promise<void> {
    const workers = this.workers();
    // Stop taking jobs at once; pausing without waiting for the active ones needs no Redis.
    for (const worker of workers) void worker.pause(true).catch(() => undefined);
    const deadline = Date.now() + CLOSE_GRACE_MS;
    let settle = Date.now() + SETTLE_MS;
    for (;;) {
      if (this.running > 0) settle = Math.min(deadline, Date.now() + SETTLE_MS);
      else if (this.active.size === 0) break;
      if (Date.now() >= (this.running > 0 ? deadline : settle)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (this.running > 0) this.logger.warn(`${this.running} job(s) still running after ${CLOSE_GRACE_MS} ms: closing the workers anyway`);
    await Promise.all(workers.map((worker) => worker.close(true)));
  }

  /** Counts the host's processor calls while they run (wraps our own `process`, not BullMQ's internals). */
  private countRuns(host: WorkerHost): void {
    const process = host.process.bind(host);
    host.process = async (job: Job, token?: string) => {
      this.running++;
      try {
        return await process(job, token);
      } finally {
        this.running--;
      }
    };
  }

  private hosts(): WorkerHost[] {
    return this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost);
  }

  private workers(): Worker[] {
    return this.hosts().flatMap((host) => {
      try {
        return [host.worker];
      } catch {
        return []; // not registered (manualRegistration, or a role that runs no workers)
      }
    });
  }
}
