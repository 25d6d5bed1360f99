import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';

/**
 * A `queued` mark whose job is gone after all (removed by hand with the CLI, or, rarely, a process
 * killed during its add just after another marked the endpoint `queued`) holds the endpoint's
 * wake-ups this long at most; the sweeper wakes the endpoint in any case.
 */
export const WAKE_MARK_TTL_MS = 5000;

/**
 * Marks each key not marked yet as `adding` (with the expiry ARGV[1], in ms) and answers every
 * key's previous mark (false: none). One call for a group's endpoints; Redis 6.2 has no SET NX GET.
 */
const MARK = `
local previous = {}
for index, key in ipairs(KEYS) do
  previous[index] = redis.call('GET', key)
  if not previous[index] then redis.call('SET', key, 'adding', 'PX', ARGV[1]) end
end
return previous`;

/**
 * Which endpoints have a drain job queued that has not started yet. The wake-up that adds an
 * endpoint's job marks it, `adding` before the add and `queued` once BullMQ has the job; the drain
 * deletes the mark as it starts, before its first claim. A wake-up that finds `queued` needs no
 * job: the queued drain starts after the wake-up's rows were committed, so it claims them. One
 * that finds `adding` adds its own job all the same (BullMQ keeps one), since that add may fail.
 * BullMQ would drop those jobs too, but only after running its add script: about 70 µs of Redis
 * and 40 µs of node per endpoint and group commit, a tenth of a message's CPU when groups are
 * small (bench:ingest).
 */
@Injectable()
export class DrainWakeMarks {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * Answers the endpoints whose wake-up needs a job (all but those marked `queued`), marking the
   * unmarked ones `adding`. An endpoint whose mark could not be read needs a job too.
   */
  async mark(webhookIds: readonly string[]): Promise<string[]> {
    const previous = (await this.redis.eval(MARK, webhookIds.length, ...webhookIds.map((id) => this.keyOf(id)), WAKE_MARK_TTL_MS)) as (string | null)[];
    return webhookIds.filter((_, index) => previous[index] !== 'queued');
  }

  /** BullMQ has the endpoints' jobs: later wake-ups can rely on them until their drain starts. */
  async queued(webhookIds: readonly string[]): Promise<void> {
    const pipeline = this.redis.pipeline();
    // XX: a drain that already started (and deleted the mark) must not leave one behind.
    for (const id of webhookIds) pipeline.set(this.keyOf(id), 'queued', 'KEEPTTL', 'XX');
    await pipeline.exec();
  }

  /** The wake-ups' jobs could not be added: the next wake-up must try again. */
  async unmark(webhookIds: readonly string[]): Promise<void> {
    if (webhookIds.length) await this.redis.del(...webhookIds.map((id) => this.keyOf(id)));
  }

  /**
   * A drain of the endpoint starts: wake-ups from now on need a job of their own. Retried a few
   * times (the shared connection gives up on a command after one reconnect): failing here fails
   * the drain job, which BullMQ then retries only after seconds.
   */
  async started(webhookId: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.redis.del(this.keyOf(webhookId));
        return;
      } catch (error) {
        if (attempt >= 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  /** The endpoint's mark: `<prefix>:webhooks:drain-woken:<webhook id>`. */
  keyOf(webhookId: string): string {
    return this.keys.key('webhooks', 'drain-woken', webhookId);
  }
}
