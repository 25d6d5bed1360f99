import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { onCleanup, removeDir } from './cleanup.js';
import { freePort, waitFor } from './ports.js';

/**
 * A redis-server of its own on a spare loopback port, with an append-only file fsynced on every
 * write (as a production Redis for queues should be): a restart, even a kill -9, keeps the queues.
 */
export class PrivateRedis {
  private child: ChildProcess | undefined;

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-faults-redis-'));
    const redis = new PrivateRedis(dir, await freePort());
    onCleanup(
      `redis ${dir}`,
      async () => {
        await redis.stop();
        removeDir(dir);
      },
      () => {
        redis.child?.kill('SIGKILL');
        removeDir(dir);
      },
    );
    await redis.startServer();
    return redis;
  }

  async startServer(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--logfile',
        join(this.dir, 'redis.log'),
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    await waitFor('redis answering PING', () => this.ping(), 15_000);
  }

  /** SIGKILL (a crash) or SIGTERM (a clean shutdown); resolves once the process is gone. */
  async stop(signal: 'SIGKILL' | 'SIGTERM' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.child = undefined;
  }

  async ping(): Promise<boolean> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }
}
