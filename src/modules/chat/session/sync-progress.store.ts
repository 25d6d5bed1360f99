import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';
import type { SyncState } from './scan-sessions.port.js';

export interface SyncProgress {
  state: SyncState;
  /** 0..100 */
  progress: number;
  /** Conversations and messages the history sync has stored so far (absent: 0). */
  chats?: number;
  messages?: number;
}

/** What one ingested history batch adds to the sync state. */
export interface SyncStep {
  /** 0..100, or null when the phone did not say. */
  progress: number | null;
  chats: number;
  messages: number;
  /** The phone's last batch of the initial sync. */
  done: boolean;
}

/**
 * Batches may be ingested out of order by several workers: progress only grows, counts add up,
 * and `done` stays done until the next link resets the key. One script, so two batches finishing
 * together cannot lose an update.
 */
const ADVANCE = `
local raw = redis.call('GET', KEYS[1])
local cur = { state = 'idle', progress = 0, chats = 0, messages = 0 }
if raw then cur = cjson.decode(raw) end
local progress = tonumber(cur.progress) or 0
local step = tonumber(ARGV[1])
if step >= 0 and step > progress then progress = step end
local state = 'running'
if ARGV[4] == '1' or cur.state == 'done' then state = 'done'; progress = 100 end
local out = cjson.encode({ state = state, progress = progress,
  chats = (tonumber(cur.chats) or 0) + tonumber(ARGV[2]), messages = (tonumber(cur.messages) or 0) + tonumber(ARGV[3]) })
redis.call('SET', KEYS[1], out, 'EX', tonumber(ARGV[5]))
return out`;

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
    // The status route shows state and progress only; the counts travel on `sync.progress` events.
    return { state: parsed.state, progress: parsed.progress };
  }

  /** Adds one ingested history batch and answers the new state (see ADVANCE). */
  async advance(workspaceId: string, step: SyncStep): Promise<Required<SyncProgress>> {
    const progress = step.progress === null ? -1 : Math.max(0, Math.min(100, Math.round(step.progress)));
    const out = (await this.redis.eval(ADVANCE, 1, this.key(workspaceId), progress, step.chats, step.messages, step.done ? '1' : '0', TTL_SECONDS)) as string;
    return JSON.parse(out) as Required<SyncProgress>;
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
