import { Inject, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '../../infra/redis/redis.module.js';

export type CheckState = 'up' | 'down';

class HealthChecks {
  @ApiProperty({ enum: ['up', 'down'] })
  database: CheckState;

  @ApiProperty({ enum: ['up', 'down'] })
  redis: CheckState;
}

export class HealthReport {
  @ApiProperty({ enum: ['ok', 'degraded'], description: '`degraded` (with status 503) while a check is down' })
  status: 'ok' | 'degraded';

  @ApiProperty({ type: HealthChecks })
  checks: HealthChecks;
}

const CHECK_TIMEOUT_MS = 1500;

async function probe(check: () => Promise<unknown>): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<HealthReport> {
    const [database, redis] = await Promise.all([probe(() => this.dataSource.query('SELECT 1')), probe(() => this.pingRedis())]);
    return { status: database === 'up' && redis === 'up' ? 'ok' : 'degraded', checks: { database, redis } };
  }

  /**
   * While ioredis waits to retry a lost connection, a PING would sit in its offline queue until
   * the timeout: that connection is down, and saying so at once keeps the check fast. While it is
   * connecting (at start-up, or a retry under way) the PING waits for the outcome.
   */
  private pingRedis(): Promise<unknown> {
    const { status } = this.redis;
    if (status === 'reconnecting' || status === 'close' || status === 'end') return Promise.reject(new Error(status));
    return this.redis.ping();
  }
}
