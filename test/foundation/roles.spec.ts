import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BullModule, InjectQueue, Processor, WorkerHost, getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// ROLE=worker (no HTTP port at all) is covered with a real process in service-process.spec.ts.

const TEST_QUEUE = 'test-roles';
const processed: string[] = [];

@Processor(TEST_QUEUE)
class RecordingProcessor extends WorkerHost {
  async process(): Promise<void> {
    processed.push('job');
  }
}

@Injectable()
class QueueHandle {
  constructor(@InjectQueue(TEST_QUEUE) readonly queue: Queue) {}
}

describe('ROLE=api', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { ROLE: 'api' },
      imports: [BullModule.registerQueue({ name: TEST_QUEUE })],
      providers: [RecordingProcessor, QueueHandle],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves HTTP', async () => {
    expect((await t.http().get('/api/health')).status).toBe(200);
  });

  it('enqueues jobs but runs no worker, leaving them for a worker process', async () => {
    const queue = t.app.get(QueueHandle).queue;
    await queue.add('for-a-worker', {});
    expect(() => t.app.get(RecordingProcessor).worker).toThrow();
    expect(await queue.getJobCounts('waiting', 'active', 'completed')).toEqual({ waiting: 1, active: 0, completed: 0 });
    expect(processed).toEqual([]);
  });

  it('gives every job of the service queues retries with exponential backoff and bounded retention', async () => {
    for (const name of Object.values(QueueName)) {
      const queue = t.app.get<Queue>(getQueueToken(name), { strict: false });
      const job = await queue.add('defaults', { id: 'x' });
      expect(job.opts).toMatchObject({
        attempts: 8,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: { age: 86_400, count: 1000 },
        removeOnFail: { age: 604_800, count: 5000 },
      });
      await job.remove();
    }
  });
});
