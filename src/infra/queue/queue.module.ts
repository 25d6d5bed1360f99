import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { DefaultJobOptions } from 'bullmq';
import { AppConfig } from '../config/app-config.js';
import { LoggedQueue } from './logged-queue.js';
import { QueueLifecycle } from './queue-lifecycle.js';
import { QueueMetrics } from './queue-metrics.js';
import { QueueName } from './queue-names.js';

export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  // Keep a short history for debugging without letting Redis grow without bound.
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};

const queues = Object.values(QueueName).map((name) => ({ name }));

// The class @nestjs/bullmq builds every registered queue from (a static setting of the library).
BullModule.queueClass = LoggedQueue;

/** Registers every queue once (producers anywhere can inject them); processors live in features. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // BullMQ workers block on Redis: they must retry, never fail a command. A connection that
        // is closed while Redis is away would keep the process alive for ioredis' default 2 s.
        connection: { url: config.redisUrl, maxRetriesPerRequest: null, disconnectTimeout: 200 },
        prefix: `${config.redisPrefix}:bull`,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      }),
      // Workers start only where ROLE runs them: QueueLifecycle registers them.
      extraOptions: { manualRegistration: true },
    }),
    BullModule.registerQueue(...queues),
    DiscoveryModule,
  ],
  providers: [QueueLifecycle, QueueMetrics],
  exports: [BullModule],
})
export class QueueModule {}
