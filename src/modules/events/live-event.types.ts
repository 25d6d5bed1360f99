/** Names of the live events sent on `GET /api/events` (api.md, "Live event stream"). */
export type LiveEventName = 'message.created' | 'message.updated' | 'conversation.updated' | 'sync.progress' | 'session.updated';

export const LIVE_EVENT_NAMES: readonly LiveEventName[] = [
  'message.created',
  'message.updated',
  'conversation.updated',
  'sync.progress',
  'session.updated',
];

export interface LiveEvent {
  /** Stream id, sent as the SSE `id:` so clients can resume with `Last-Event-ID`. */
  id: string;
  name: LiveEventName;
  workspaceId: string;
  data: Record<string, unknown>;
}

/**
 * A live event as it travels through Redis and onto the wire: the payload stays the JSON text it
 * was published as, so fan-out to many clients never parses or re-serialises it.
 */
export interface SerializedLiveEvent {
  id: string;
  name: LiveEventName;
  /** `JSON.stringify(data)`: one line, since JSON escapes newlines inside strings. */
  json: string;
}

/** Where the fan-out delivers a workspace's events: one open SSE connection. */
export interface LiveEventSink {
  deliver(event: SerializedLiveEvent): void;
  /** Ends the connection; the client reconnects (to any replica) and replays what it missed. */
  close(): void;
}

/** 503 text while the stream cannot be served (Redis unreachable, process shutting down). */
export const EVENTS_UNAVAILABLE = 'live events are unavailable, retry shortly';
