import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../infra/redis/redis.module.js';
import { isUuid } from '../inbox/dto/id.pipe.js';
import { compareEventIds, ZERO_EVENT_ID } from './event-id.js';
import {
  CATALOGUE_STREAM_PREFIX,
  isStreamEventName,
  type LiveEventAudience,
  type LiveEventName,
  type SerializedLiveEvent,
  type StreamEventName,
} from './live-event.types.js';
import { LIVE_EVENTS_OPTIONS, type LiveEventsOptions } from './live-events.options.js';

/**
 * Append + publish a batch of events, then trim, in one script. Running them atomically makes the
 * order of PUBLISH equal the order of stream ids across every publisher (api and worker processes
 * alike), which is what lets a subscriber drop "id <= last sent" as duplicates without ever
 * dropping a real event. The stream expires after the replay window of silence: nothing in it
 * could be replayed anyway.
 *
 * Events are PUBLISHed only while some process subscribes to the channel (an open Console or SSE
 * client), and appended to the replay stream only while one does or the workspace's watch mark
 * (KEYS[2]) is set: a stream connection sets it before subscribing and keeps it for twice the
 * replay window after the last one closed, so every client that can resume finds what it missed,
 * and a workspace nobody has watched for that long (most of them, at any moment) costs Redis
 * nothing per event. The script runs atomically, so a SUBSCRIBE cannot slip in between the check
 * and the appends (a new subscriber reads the stream's head only after its SUBSCRIBE took
 * effect). Answers the ids written: none when nobody watches.
 *
 * ARGV[1..3]: channel, max length, window; then per event three values: name, JSON data,
 * audience (comma-separated user ids, '' for everyone). The audience is stored as field `a` and
 * appended to the name line of the message (`<name> <ids>`) only when there is one, so an event
 * for everyone is byte-for-byte what older processes publish and decode.
 */
const PUBLISH_SCRIPT = `
local ids = {}
local listened = redis.call('PUBSUB', 'NUMSUB', ARGV[1])[2] > 0
if not listened and redis.call('EXISTS', KEYS[2]) == 0 then return ids end
for i = 4, #ARGV, 3 do
  local name, data, audience = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local id
  if audience == '' then
    id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'n', name, 'd', data)
  else
    id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'n', name, 'd', data, 'a', audience)
    name = name .. ' ' .. audience
  end
  if listened then redis.call('PUBLISH', ARGV[1], id .. '\\n' .. name .. '\\n' .. data) end
  ids[#ids + 1] = id
end
local ms = tonumber(string.match(ids[#ids], '^(%d+)'))
local window = tonumber(ARGV[3])
if ms > window then redis.call('XTRIM', KEYS[1], 'MINID', '~', string.format('%d-0', ms - window)) end
redis.call('PEXPIRE', KEYS[1], window)
return ids
`;
const PUBLISH_SCRIPT_SHA = createHash('sha1').update(PUBLISH_SCRIPT).digest('hex');

const REPLAY_PAGE = 500;

/** An event to publish: its name, its data (sent as JSON) and who may see it. */
export interface OutgoingLiveEvent {
  name: StreamEventName;
  /** Any JSON-serialisable object (a REST response shape), or its JSON text (sent as it is). */
  data: object | string;
  audience?: LiveEventAudience;
}

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
export class LiveEventsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LiveEventsService.name);
  private adopter?: NodeJS.Timeout;
  private adopting: Promise<void> = Promise.resolve();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(LIVE_EVENTS_OPTIONS) private readonly options: LiveEventsOptions,
  ) {}

  /**
   * Best effort: live events are a convenience on top of Postgres (the source of truth), so a
   * Redis hiccup is logged and never fails the write that caused the event.
   */
  async publish(workspaceId: string, name: LiveEventName, data: object, audience?: LiveEventAudience): Promise<void> {
    await this.publishAll(workspaceId, [{ name, data, audience }]);
  }

  /** Several events of one workspace, in this order, in one Redis round trip (best effort, as `publish`). */
  async publishAll(workspaceId: string, events: OutgoingLiveEvent[]): Promise<void> {
    try {
      await this.appendAll(workspaceId, events);
    } catch (error) {
      const names = events.map((event) => event.name).join(', ');
      this.logger.warn(`live events ${names} for workspace ${workspaceId} not published: ${String(error)}`);
    }
  }

  /**
   * A webhook catalogue event for the streams opened with `?events=` listing `type`: `body` is the
   * webhook's exact JSON text. Best effort, like `publish`; nothing is built or sent when nobody
   * watches the workspace (the script's check).
   */
  async publishCatalogue(workspaceId: string, type: string, body: string, audience?: LiveEventAudience): Promise<void> {
    await this.publishAll(workspaceId, [{ name: `${CATALOGUE_STREAM_PREFIX}${type}`, data: body, audience }]);
  }

  /**
   * Like `publish`, but answers the event id and lets failures through. No id: nobody watches the
   * workspace, so the event was neither sent nor kept.
   */
  async append(workspaceId: string, name: LiveEventName, data: object, audience?: LiveEventAudience): Promise<string | undefined> {
    const [id] = await this.appendAll(workspaceId, [{ name, data, audience }]);
    return id;
  }

  /** Like `publishAll`, but answers the event ids and lets failures through (none when nobody watches). */
  async appendAll(workspaceId: string, events: OutgoingLiveEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    const args = [this.channelOf(workspaceId), String(this.options.maxStreamLength), String(this.options.replayWindowMs)];
    for (const { name, data, audience } of events) args.push(name, typeof data === 'string' ? data : JSON.stringify(data), encodeAudience(audience));
    const keys = [this.streamKey(workspaceId), this.watchKey(workspaceId)];
    let ids: unknown;
    try {
      ids = await this.redis.evalsha(PUBLISH_SCRIPT_SHA, keys.length, ...keys, ...args);
    } catch (error) {
      // First use on this Redis (or after SCRIPT FLUSH): send the script body once.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      ids = await this.redis.eval(PUBLISH_SCRIPT, keys.length, ...keys, ...args);
    }
    return (ids as unknown[]).map(String);
  }

  /**
   * Sets the watch mark of these workspaces for twice the replay window: their events are kept
   * for replay until then even with no stream open. A stream connection sets it before it
   * subscribes and once more when the last one closes; `markSubscribed` refreshes it while open.
   */
  async markWatched(workspaceIds: readonly string[]): Promise<void> {
    if (workspaceIds.length === 0) return;
    const ttl = 2 * this.options.replayWindowMs;
    const pipeline = this.redis.pipeline();
    for (const workspaceId of workspaceIds) pipeline.set(this.watchKey(workspaceId), '1', 'PX', ttl);
    const replies = (await pipeline.exec()) ?? [];
    const failed = replies.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }

  /**
   * Which of these workspaces someone watches now (a subscribed channel, or the watch mark: a
   * stream within twice the replay window): the only ones whose events are worth building. The
   * subscriptions count too, so a mark lost while a stream is open (a flushed or failed-over
   * Redis) costs that stream nothing. A workspace left out cannot gain a client that expects the
   * events of messages committed before this answer: a new stream sees only what happens after
   * it opened, and it sets the mark before it subscribes.
   */
  async watched(workspaceIds: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(workspaceIds)];
    if (unique.length === 0) return new Set();
    const [marks, subscribers] = await Promise.all([
      this.redis.mget(unique.map((workspaceId) => this.watchKey(workspaceId))),
      this.redis.pubsub('NUMSUB', ...unique.map((workspaceId) => this.channelOf(workspaceId))) as Promise<unknown[]>,
    ]);
    // NUMSUB answers channel, count, channel, count… in the order asked.
    return new Set(unique.filter((_, index) => marks[index] !== null || Number(subscribers[2 * index + 1]) > 0));
  }

  /**
   * Every process marks, at start and every half window, the workspaces whose channel some
   * process subscribes to (`markSubscribed`). A mark lives twice the window, so it never lapses
   * while a stream is open, and outlives a crashed process long enough for its clients to resume
   * elsewhere. Streams held by a process of a version before watch marks (during a rolling
   * upgrade) are marked too: without it their clients, moved to a new process after the old one
   * stopped, would find nothing of the seconds in between to replay.
   */
  onApplicationBootstrap(): void {
    this.adopting = this.markSubscribed();
    this.adopter = setInterval(() => void (this.adopting = this.markSubscribed()), this.options.replayWindowMs / 2);
    this.adopter.unref();
  }

  /** Before Redis closes (RedisModule's shutdown hook): no round left to fail on a closed connection. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.adopter);
    await this.adopting;
  }

  /** Sets the watch mark of every workspace whose channel has a subscriber now (best effort). */
  async markSubscribed(): Promise<void> {
    try {
      const prefix = this.channelOf('');
      const channels = (await this.redis.pubsub('CHANNELS', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`)) as string[];
      await this.markWatched(channels.map((channel) => channel.slice(prefix.length)).filter(isUuid));
    } catch (error) {
      this.logger.warn(`watch marks of subscribed workspaces not set: ${String(error)}`);
    }
  }

  /** The pub/sub channel of a workspace's events. */
  channelOf(workspaceId: string): string {
    return this.keys.key('events', workspaceId);
  }

  /**
   * Decodes a pub/sub message as the publish script writes it: `id \n name \n json`, where the
   * name line is `<name> <user ids>` for an event with an audience.
   */
  decode(message: string): SerializedLiveEvent | undefined {
    const first = message.indexOf('\n');
    const second = message.indexOf('\n', first + 1);
    if (first < 0 || second < 0) return undefined;
    const head = message.slice(first + 1, second);
    const space = head.indexOf(' ');
    const name = space < 0 ? head : head.slice(0, space);
    if (!isStreamEventName(name)) return undefined;
    const event: SerializedLiveEvent = { id: message.slice(0, first), name, json: message.slice(second + 1) };
    if (space >= 0) event.audience = decodeAudience(head.slice(space + 1));
    return event;
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

  private watchKey(workspaceId: string): string {
    return this.keys.key('events', workspaceId, 'watched');
  }
}

/** Stream entries hold `n` (name), `d` (JSON data) and maybe `a` (audience), as the publish script writes them. */
function fromFields(id: string, fields: string[]): SerializedLiveEvent | undefined {
  let name: string | undefined;
  let json: string | undefined;
  let audience: string | undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'n') name = fields[i + 1];
    if (fields[i] === 'd') json = fields[i + 1];
    if (fields[i] === 'a') audience = fields[i + 1];
  }
  if (name === undefined || json === undefined || !isStreamEventName(name)) return undefined;
  const event: SerializedLiveEvent = { id, name, json };
  if (audience !== undefined && audience !== '') event.audience = decodeAudience(audience);
  return event;
}

// User ids travel comma-separated on the name line of a pub/sub message: they must not contain
// separators (a uuid never does; anything else is refused rather than mis-delivered).
const AUDIENCE_ID = /^[^\s,]+$/;

/**
 * The audience as the publish script stores it: '' for everyone (no assignee now, or none before
 * a change: agents could see it), else the assignee and the previous assignee, comma-separated.
 */
function encodeAudience(audience: LiveEventAudience | undefined): string {
  const current = audience?.assigneeId;
  const previous = audience?.previousAssigneeId;
  if (current === undefined || current === null || previous === null) return '';
  const ids = previous === undefined || previous === current ? [current] : [current, previous];
  for (const id of ids) if (!AUDIENCE_ID.test(id)) throw new Error(`invalid audience user id: ${JSON.stringify(id)}`);
  return ids.map((id) => id.toLowerCase()).join(',');
}

function decodeAudience(encoded: string): string[] {
  return encoded.split(',').filter((id) => id !== '');
}
