import { getQueueToken } from '@nestjs/bullmq';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Queue, Worker } from 'bullmq';
import { runCommand, UsageError } from '../../src/cli/cli-commands.js';
import { OperatorModule } from '../../src/cli/operator.module.js';
import { OperatorError, OperatorService } from '../../src/cli/operator.service.js';
import { type JobOutput as JobLine, QueueInspector } from '../../src/cli/queue-inspector.service.js';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('operator CLI: queues', () => {
  let t: TestApp;
  let cli: (...argv: string[]) => Promise<Record<string, unknown>>;
  let queue: Queue;
  const failedIds: string[] = [];

  beforeAll(async () => {
    // An api process: it enqueues but runs no worker, so jobs stay where the test puts them.
    t = await createTestApp({ env: { ROLE: 'api' }, imports: [OperatorModule] });
    const inspector = t.app.get(QueueInspector);
    cli = async (...argv) => (await runCommand(argv, t.app.get(OperatorService), inspector)) as Record<string, unknown>;
    queue = t.app.get<Queue>(getQueueToken(QueueName.HistorySync));

    // Three jobs that fail for good, through a real BullMQ worker on the app's queues.
    const worker = new Worker(
      QueueName.HistorySync,
      async (job) => {
        throw new Error(`upstream refused batch ${(job.data as { batchId: string }).batchId}`);
      },
      { connection: { url: t.config.redisUrl, maxRetriesPerRequest: null }, prefix: `${t.config.redisPrefix}:bull`, autorun: false },
    );
    const failed = new Promise<void>((resolve) => {
      let count = 0;
      worker.on('failed', () => ++count === 3 && resolve());
    });
    for (const batchId of ['b1', 'b2', 'b3']) failedIds.push((await queue.add('sync', { workspaceId: 'w', batchId }, { attempts: 1 })).id!);
    void worker.run();
    await failed;
    await worker.close();
    await queue.add('sync', { workspaceId: 'w', batchId: 'waiting' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every queue with its counts per state', async () => {
    const { queues } = (await cli('queues')) as { queues: { name: string; paused: boolean; counts: Record<string, number> }[] };
    expect(queues.map((q) => q.name).sort()).toEqual(Object.values(QueueName).sort());
    expect(queues.find((q) => q.name === QueueName.HistorySync)).toEqual({
      name: QueueName.HistorySync,
      paused: false,
      counts: { waiting: 1, active: 0, delayed: 0, prioritized: 0, 'waiting-children': 0, failed: 3, completed: 0 },
    });
  });

  it('shows failed jobs with their reason, attempts and where they failed', async () => {
    const out = (await cli('queue-jobs', QueueName.HistorySync)) as { state: string; jobs: JobLine[] };
    expect(out.state).toBe('failed');
    expect(out.jobs.map((job) => job.id).sort()).toEqual([...failedIds].sort());
    const first = out.jobs.find((job) => job.id === failedIds[0])!;
    expect(first).toMatchObject({
      state: 'failed',
      data: { workspaceId: 'w', batchId: 'b1' },
      attempts_made: 1,
      max_attempts: 1,
      failed_reason: 'upstream refused batch b1',
    });
    expect(first.stacktrace[0]).toBe('Error: upstream refused batch b1');
    expect(((await cli('queue-jobs', QueueName.HistorySync, '--state', 'failed', '--limit', '1')) as { jobs: unknown[] }).jobs).toHaveLength(1);
    expect(((await cli('queue-jobs', QueueName.HistorySync, '--state', 'waiting')) as { jobs: JobLine[] }).jobs.map((job) => job.state)).toEqual(['waiting']);
  });

  it('retries one failed job, refuses to retry one that has not failed, and removes another', async () => {
    expect(await cli('queue-retry', QueueName.HistorySync, failedIds[0]!)).toEqual({ queue: QueueName.HistorySync, retried: [failedIds[0]] });
    expect(await (await queue.getJob(failedIds[0]!))!.getState()).toBe('waiting');
    await expect(cli('queue-retry', QueueName.HistorySync, failedIds[0]!)).rejects.toThrow(
      new OperatorError(`job ${failedIds[0]} of ${QueueName.HistorySync} is waiting: only failed jobs can be retried`),
    );

    expect(await cli('queue-remove', QueueName.HistorySync, failedIds[1]!)).toEqual({ queue: QueueName.HistorySync, removed: [failedIds[1]] });
    expect(await queue.getJob(failedIds[1]!)).toBeUndefined();
    await expect(cli('queue-remove', QueueName.HistorySync, failedIds[1]!)).rejects.toThrow(
      new OperatorError(`job not found: ${QueueName.HistorySync}/${failedIds[1]}`),
    );

    expect(await cli('queue-retry', QueueName.HistorySync, '--all-failed')).toEqual({ queue: QueueName.HistorySync, retried: 1 });
    expect(await queue.getFailedCount()).toBe(0);
  });

  it('refuses unknown queues, states, limits and incomplete command lines as usage errors', async () => {
    await expect(cli('queue-jobs', 'emails')).rejects.toThrow(new UsageError(`unknown queue: emails (one of ${Object.values(QueueName).join(', ')})`));
    await expect(cli('queue-jobs', QueueName.Automations, '--state', 'stuck')).rejects.toThrow(UsageError);
    await expect(cli('queue-jobs', QueueName.Automations, '--limit', '0')).rejects.toThrow(new UsageError('--limit must be 1-1000 (got "0")'));
    await expect(cli('queue-retry', QueueName.Automations)).rejects.toThrow(new UsageError('queue-retry takes <queue> and either job ids or --all-failed'));
    await expect(cli('queue-retry', QueueName.Automations, '1', '--all-failed')).rejects.toThrow(UsageError);
    await expect(cli('queue-remove', QueueName.Automations)).rejects.toThrow(new UsageError('queue-remove takes <queue> <job_id>...'));
    await expect(cli('queues', '--force')).rejects.toThrow(UsageError);
  });

  it('fails, instead of waiting for Redis forever, when Redis is unreachable', async () => {
    const inspector = new QueueInspector(loadConfig({ REDIS_URL: 'redis://127.0.0.1:9' }));
    try {
      // A hang would end in the test's timeout; the connection gives up after three tries.
      await expect(inspector.summary()).rejects.toThrow();
    } finally {
      await inspector.onApplicationShutdown();
    }
  });
});
