import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../infra/redis/redis.module.js';
import { compareEventIds, ZERO_EVENT_ID } from './event-id.js';
import { LIVE_EVENT_NAMES, type LiveEventName, type SerializedLiveEvent } from './live-event.types.js';
import { LIVE_EVENTS_OPTIONS, type LiveEventsOptions } from './live-events.options.js';

/**
 * Append + trim + publish in one script. Running them atomically makes the order of PUBLISH equal
 * the order of stream ids across every publisher (api and worker processes alike), which is what
 * lets a subscriber drop "id <= last sent" as duplicates without ever dropping a real event.
 * The stream expires after the replay window of silence: nothing in it could be replayed anyway.
 */
const PUBLISH_SCRIPT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'n', ARGV[4], 'd', ARGV[5])
local ms = tonumber(string.match(id, '^(%d+)'))
local window = tonumber(ARGV[3])
if ms > window then redis.call('XTRIM', KEYS[1], 'MINID', '~', string.format('%d-0', ms - window)) end
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PUBLISH', ARGV[1], id .. '\\n' .. ARGV[4] .. '\\n' .. ARGV[5])
return id
`;
const PUBLISH_SCRIPT_SHA = createHash('sha1').update(PUBLISH_SCRIPT).digest('hex');

const REPLAY_PAGE = 500;

export interface Replay {
  /** The newest id in the stream when the replay was read; live events at or below it are old. */
  head: string;
  /** Events after the client's `Last-Event-ID` up to `head`, oldest first. */
  events: SerializedLiveEvent[];
}

/**
 * Publishes live events to every api replica (Redis pub/sub + a capped replay stream). Usable
 * from any process role: publishing needs only the shared command connection.
 */
@Injectable()
export class LiveEventsService {
  private readonly logger = new Logger(LiveEventsService.name);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(LIVE_EVENTS_OPTIONS) private readonly options: LiveEventsOptions,
  ) {}

  /**
   * Best effort: live events are a convenience on top of Postgres (the source of truth), so a
   * Redis hiccup is logged and never fails the write that caused the event.
   */
  async publish(workspaceId: string, name: LiveEventName, data: Record<string, unknown>): Promise<void> {
    try {
      await this.append(workspaceId, name, data);
    } catch (error) {
      this.logger.warn(`live event ${name} for workspace ${workspaceId} not published: ${String(error)}`);
    }
  }

  /** Like `publish`, but answers the event id and lets failures through. */
  async append(workspaceId: string, name: LiveEventName, data: Record<string, unknown>): Promise<string> {
    const args = [
      this.streamKey(workspaceId),
      this.channelOf(workspaceId),
      String(this.options.maxStreamLength),
      String(this.options.replayWindowMs),
      name,
      JSON.stringify(data),
    ];
    let id: unknown;
    try {
      id = await this.redis.evalsha(PUBLISH_SCRIPT_SHA, 1, ...args);
    } catch (error) {
      // First use on this Redis (or after SCRIPT FLUSH): send the script body once.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      id = await this.redis.eval(PUBLISH_SCRIPT, 1, ...args);
    }
    return String(id);
  }

  /** The pub/sub channel of a workspace's events. */
  channelOf(workspaceId: string): string {
    return this.keys.key('events', workspaceId);
  }

  /** Decodes a pub/sub message (`id \n name \n json`, as the publish script writes it). */
  decode(message: string): SerializedLiveEvent | undefined {
    const first = message.indexOf('\n');
    const second = message.indexOf('\n', first + 1);
    if (first < 0 || second < 0) return undefined;
    const name = message.slice(first + 1, second);
    if (!isLiveEventName(name)) return undefined;
    return { id: message.slice(0, first), name, json: message.slice(second + 1) };
  }

  /**
   * What a client resuming after `after` missed (nothing for a fresh client), read up to the
   * stream's current head. Call it only once the client's subscription is active: every event
   * newer than `head` then reaches the client live, every older one is here, so none is lost.
   */
  async replay(workspaceId: string, after: string | undefined): Promise<Replay> {
    const key = this.streamKey(workspaceId);
    const newest = await this.redis.xrevrange(key, '+', '-', 'COUNT', 1);
    const head = newest[0]?.[0] ?? ZERO_EVENT_ID;
    const events: SerializedLiveEvent[] = [];
    // Nothing newer than the client's position (or a position from some other stream): no replay.
    if (after === undefined || compareEventIds(after, head) >= 0) return { head, events };

    let cursor = after;
    for (;;) {
      const page = await this.redis.xrange(key, `(${cursor}`, head, 'COUNT', REPLAY_PAGE);
      for (const [id, fields] of page) {
        const event = fromFields(id, fields);
        if (event) events.push(event);
      }
      if (page.length < REPLAY_PAGE) break;
      cursor = page[page.length - 1]![0];
    }
    return { head, events };
  }

  private streamKey(workspaceId: string): string {
    return this.keys.key('events', workspaceId, 'stream');
  }
}

function isLiveEventName(name: string): name is LiveEventName {
  return (LIVE_EVENT_NAMES as readonly string[]).includes(name);
}

/** Stream entries hold `n` (name) and `d` (JSON data), as the publish script writes them. */
function fromFields(id: string, fields: string[]): SerializedLiveEvent | undefined {
  let name: string | undefined;
  let json: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'n') name = fields[i + 1];
    if (fields[i] === 'd') json = fields[i + 1];
  }
  return name !== undefined && json !== undefined && isLiveEventName(name) ? { id, name, json } : undefined;
}
