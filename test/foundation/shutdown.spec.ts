import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BullModule, InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Controller, Get, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { REDIS } from '../../src/infra/redis/redis.module.js';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A queue of its own, so no feature processor can take the test's job.
const TEST_QUEUE = 'test-shutdown';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const requestStarted = deferred();
const jobStarted = deferred();
const releaseRequest = deferred();
const releaseJob = deferred();

/** Work that is still running when the shutdown begins, and needs the database and Redis to finish. */
async function finishWork(release: Promise<void>, dataSource: DataSource, redis: Redis): Promise<string> {
  await release;
  const [row] = (await dataSource.query('SELECT 1 AS one')) as { one: number }[];
  return `${row!.one}-${await redis.ping()}`;
}

@Public()
@Controller('api/test-slow')
class SlowController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Get()
  async slow(): Promise<{ result: string }> {
    requestStarted.resolve();
    return { result: await finishWork(releaseRequest.promise, this.dataSource, this.redis) };
  }
}

const finishedJobs: string[] = [];

@Processor(TEST_QUEUE)
class SlowProcessor extends WorkerHost {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    super();
  }

  async process(job: Job): Promise<void> {
    jobStarted.resolve();
    finishedJobs.push(`${job.name}:${await finishWork(releaseJob.promise, this.dataSource, this.redis)}`);
  }
}

/** Holds the test queue for the test; InjectQueue needs a provider to live in. */
@Injectable()
class QueueHandle {
  constructor(@InjectQueue(TEST_QUEUE) readonly queue: Queue) {}
}

interface Answer {
  status: number;
  body: string;
  connection: string | undefined;
}

function get(port: number, path: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('error', reject);
  });
}

describe('graceful shutdown (app.close(), which SIGTERM triggers)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      imports: [BullModule.registerQueue({ name: TEST_QUEUE })],
      controllers: [SlowController],
      providers: [SlowProcessor, QueueHandle],
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    releaseRequest.resolve();
    releaseJob.resolve();
    await t?.close();
  });

  it('stops taking requests at once, then finishes the in-flight request and job with their connections', async () => {
    await t.app.get(QueueHandle).queue.add('in-flight', {});
    await jobStarted.promise;
    // A client that keeps its connection alive, as load balancers and SDKs do.
    const keepAlive = new http.Agent({ keepAlive: true });
    const response = get(port, '/api/test-slow', keepAlive);
    await requestStarted.promise;

    const closing = t.app.close();
    const server = t.app.getHttpServer();
    while (server.listening) await new Promise((resolve) => setImmediate(resolve));

    // The job is still running, yet new connections are already refused: traffic moves elsewhere.
    await expect(get(port, '/api/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(finishedJobs).toEqual([]);

    // Let the work finish well after the shutdown began, the job last: a shutdown that did not wait
    // for both would by then have closed the database pool and Redis under them.
    setTimeout(releaseRequest.resolve, 300);
    setTimeout(releaseJob.resolve, 600);
    // The in-flight request completes, and tells its client not to reuse the connection.
    expect(await response).toEqual({ status: 200, body: JSON.stringify({ result: '1-PONG' }), connection: 'close' });
    await closing;
    keepAlive.destroy();

    expect(finishedJobs).toEqual(['in-flight:1-PONG']);
    await expect(get(port, '/api/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
