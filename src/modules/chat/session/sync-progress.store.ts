import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import type { SyncState } from './scan-sessions.port.js';

export interface SyncProgress {
  state: SyncState;
  /** 0..100 */
  progress: number;
}

// History sync is short-lived; a stale "running" must not outlive a crashed worker by much.
const TTL_SECONDS = 24 * 3600;

/**
 * The history-sync state of a workspace, shared by every process: the history handler writes
 * it, `GET /api/chat/status` reads it, a new link resets it.
 */
@Injectable()
export class SyncProgressStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async read(workspaceId: string): Promise<SyncProgress> {
    const raw = await this.redis.get(this.key(workspaceId));
    if (!raw) return { state: 'idle', progress: 0 };
    const parsed = JSON.parse(raw) as SyncProgress;
    return { state: parsed.state, progress: parsed.progress };
  }

  async write(workspaceId: string, progress: SyncProgress): Promise<void> {
    await this.redis.set(this.key(workspaceId), JSON.stringify(progress), 'EX', TTL_SECONDS);
  }

  async reset(workspaceId: string): Promise<void> {
    await this.redis.del(this.key(workspaceId));
  }

  private key(workspaceId: string): string {
    return this.keys.key('chat', 'sync', workspaceId);
  }
}
