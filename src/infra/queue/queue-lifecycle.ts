import { BullRegistrar, WorkerHost } from '@nestjs/bullmq';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppConfig } from '../config/app-config.js';
import { REDIS } from '../redis/redis.module.js';
import { throttledWarning } from '../logging/throttled-warning.js';

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
 *   connection is certainly open. (BullMQ's `close()` is idempotent: the library's later call is harmless.)
 * - Connection errors. A worker without an `error` listener prints every failed reconnect with a
 *   stack trace to stderr; these are logged as one structured line, at most once a minute (queues
 *   get theirs at birth: LoggedQueue).
 */
@Injectable()
export class QueueLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  private readonly warn = throttledWarning(new Logger('Queues'));

  constructor(
    private readonly config: AppConfig,
    private readonly registrar: BullRegistrar,
    private readonly discovery: DiscoveryService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onModuleInit(): void {
    if (!this.config.runsWorkers) return;
    this.registrar.register();
    for (const worker of this.workers()) worker.on('error', (error: Error) => this.warn(`worker ${worker.name}`, error));
  }

  /**
   * A graceful close waits on Redis (to finish and unlock the active jobs), so while Redis is
   * unreachable it would never end: then the workers are closed by force. Their active jobs
   * could not have been recorded anyway; BullMQ hands them out again once their locks expire.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const force = this.redis.status !== 'ready';
    await Promise.all(this.workers().map((worker) => worker.close(force)));
  }

  private workers(): Worker[] {
    return this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .flatMap((host) => {
        try {
          return [host.worker];
        } catch {
          return []; // not registered (manualRegistration, or a role that runs no workers)
        }
      });
  }
}
