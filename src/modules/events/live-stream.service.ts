import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError } from '../../infra/http/api-error.js';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { parseEventId } from './event-id.js';
import { LiveEventFanout } from './live-event-fanout.service.js';
import { LiveEventsService } from './live-events.service.js';
import { LIVE_EVENTS_OPTIONS, type LiveEventsOptions } from './live-events.options.js';
import { SseConnection } from './sse-connection.js';
import { WEBHOOK_EVENTS } from '../webhooks/events/webhook-event.catalogue.js';

export const INVALID_LAST_EVENT_ID = 'invalid Last-Event-ID: expected an event id such as 1700000000000-0';

/**
 * The catalogue types a stream may carry (`?events=`): every webhook type but the two of the
 * contract, which stay webhook-only (`scan.chat` is `message.created` here already; `meta.chat`
 * is the provider's raw callback).
 */
export const STREAM_CATALOGUE_EVENTS: readonly string[] = WEBHOOK_EVENTS.filter((name) => name !== 'scan.chat' && name !== 'meta.chat');
export const INVALID_STREAM_EVENTS = `events must be a comma-separated list of ${STREAM_CATALOGUE_EVENTS.join(', ')}`;

/** Where a client resumes: the `Last-Event-ID` header, or `?last_event_id=` for polyfills. */
export interface ResumeFrom {
  header: string | undefined;
  query: unknown;
}

/** Opens `GET /api/events` streams: subscribe, replay what the client missed, then go live. */
@Injectable()
export class LiveStreamService {
  private readonly logger = new Logger(LiveStreamService.name);

  constructor(
    private readonly events: LiveEventsService,
    private readonly fanout: LiveEventFanout,
    @Inject(LIVE_EVENTS_OPTIONS) private readonly options: LiveEventsOptions,
  ) {}

  /**
   * Streams the actor's workspace. Owners, admins and keys receive every event; an agent only
   * those of conversations it may see over REST (unassigned or its own) and workspace-wide ones.
   */
  async open(actor: WorkspaceActor, resume: ResumeFrom, res: Response, events?: unknown): Promise<void> {
    const { workspaceId } = actor;
    const after = lastEventId(resume);
    const catalogue = catalogueOf(events);
    if (res.req.method === 'HEAD') {
      // Express routes HEAD to GET handlers; a stream without a body would never end.
      res.status(200).type('text/event-stream').end();
      return;
    }
    const principal = res.req.principal;
    const connection = new SseConnection(
      res,
      this.options,
      { seesAll: actor.seesAllConversations, userId: actor.userId?.toLowerCase() ?? null, ...(catalogue && { catalogue }) },
      {
        workspaceId,
        apiKeyId: actor.apiKeyId,
        sessionId: principal?.type === 'session' ? principal.sessionId : null,
        userId: actor.userId,
        role: actor.role,
      },
    );
    // Subscribe BEFORE reading the replay: an event published in between is then in one of the
    // two (or both, and the connection drops the duplicate), never in neither.
    let detach: () => void;
    try {
      detach = await this.fanout.attach(workspaceId, connection);
    } catch {
      // The fan-out logged why; the connection answers 503 unless it already ended.
      connection.close();
      return;
    }
    connection.onClose(detach);
    if (connection.closed) return;
    try {
      const { head, events } = await this.events.replay(workspaceId, after);
      connection.open(head, events);
    } catch (error) {
      this.logger.warn(`reading the live event replay failed: ${String(error)}`);
      // Answers 503 when nothing was sent yet; the client retries.
      connection.close();
    }
  }
}

/** The client's position; 400 for something that is not an id this service hands out. */
function lastEventId({ header, query }: ResumeFrom): string | undefined {
  // The header wins: a native EventSource keeps the URL of its first connection (with an old
  // `?last_event_id=`) but sends the newest id in the header when it reconnects.
  const raw = header !== undefined && header !== '' ? header : query;
  // An empty header is no header; an empty `?last_event_id=` is a wrong value like any other.
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw ApiError.badRequest(INVALID_LAST_EVENT_ID);
  const id = parseEventId(raw);
  if (!id) throw ApiError.badRequest(INVALID_LAST_EVENT_ID);
  return `${id.ms}-${id.seq}`;
}

/** `?events=`: absent, the stream's own events; else the listed catalogue types (400 for anything else). */
function catalogueOf(raw: unknown): ReadonlySet<string> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw ApiError.badRequest(INVALID_STREAM_EVENTS);
  const names = raw.split(',').map((name) => name.trim());
  if (names.some((name) => !STREAM_CATALOGUE_EVENTS.includes(name))) throw ApiError.badRequest(INVALID_STREAM_EVENTS);
  return new Set(names);
}
