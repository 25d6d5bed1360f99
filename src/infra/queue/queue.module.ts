import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import type { DefaultJobOptions } from 'bullmq';
import { AppConfig } from '../config/app-config.js';
import { QueueName } from './queue-names.js';

export const DEFAULT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  // Keep a short history for debugging without letting Redis grow without bound.
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
};

const queues = Object.values(QueueName).map((name) => ({ name }));

/** Registers every queue once (producers anywhere can inject them); processors live in features. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // BullMQ workers block on Redis: they must retry, never fail a command.
        connection: { url: config.redisUrl, maxRetriesPerRequest: null },
        prefix: `${config.redisPrefix}:bull`,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      }),
    }),
    BullModule.registerQueue(...queues),
  ],
  exports: [BullModule],
})
export class QueueModule {}
