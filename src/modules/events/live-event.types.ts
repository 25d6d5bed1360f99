import type { StreamCredential } from './stream-credential.js';

/** Names of the live events sent on `GET /api/events` (docs/events.md). */
export type LiveEventName =
  | 'message.created'
  | 'message.updated'
  | 'conversation.updated'
  | 'contact.created'
  | 'contact.updated'
  | 'contact.deleted'
  | 'note.created'
  | 'sync.progress'
  | 'session.updated';

export const LIVE_EVENT_NAMES: readonly LiveEventName[] = [
  'message.created',
  'message.updated',
  'conversation.updated',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'note.created',
  'sync.progress',
  'session.updated',
];

/**
 * A webhook catalogue event on the stream (docs/events.md, "Catalogue events"): the webhook's
 * type after this prefix, its exact body as data. Only a stream opened with `?events=` receives
 * them, and only those it listed; a stream without it never does (nor does a process from before
 * them: its decoder skips names it does not know).
 */
export const CATALOGUE_STREAM_PREFIX = 'catalogue/';
export type CatalogueStreamName = `catalogue/${string}`;
/** Any name an entry of the workspace's stream may carry. */
export type StreamEventName = LiveEventName | CatalogueStreamName;

// A catalogue type as the webhooks module names them (`message.status`, `session.status`).
const CATALOGUE_TYPE = /^[a-z]+(\.[a-z_]+)+$/;

export function isStreamEventName(name: string): name is StreamEventName {
  if (name.startsWith(CATALOGUE_STREAM_PREFIX)) return CATALOGUE_TYPE.test(name.slice(CATALOGUE_STREAM_PREFIX.length));
  return (LIVE_EVENT_NAMES as readonly string[]).includes(name);
}

/**
 * Who may receive an event of a conversation. Owners, admins and API keys receive every event;
 * agents (REST: unassigned conversations and their own) only events of conversations they can
 * see. Without options an event goes to every connection of the workspace.
 */
export interface LiveEventAudience {
  /** The conversation's assignee; null or absent: unassigned, every agent may see it. */
  assigneeId?: string | null;
  /**
   * The assignee before this change, when it changed: they receive the event too, so their
   * Console can drop a conversation that was assigned away from them (null: it was unassigned,
   * so every agent saw it until now and receives it).
   */
  previousAssigneeId?: string | null;
}

/** Who reads a stream: everything, or (an agent) only what has no audience or names them. */
export interface LiveEventViewer {
  seesAll: boolean;
  userId: string | null;
  /**
   * The catalogue types the stream was opened for (`?events=`): it then carries those and nothing
   * else. Absent: the stream's own events, never a catalogue one.
   */
  catalogue?: ReadonlySet<string>;
}

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
  name: StreamEventName;
  /** `JSON.stringify(data)`: one line, since JSON escapes newlines inside strings. */
  json: string;
  /** User ids of the agents who may receive it; undefined: every connection of the workspace. */
  audience?: readonly string[];
}

/**
 * The name `viewer`'s stream shows `event` under, or null when it does not receive it: not of the
 * kind its stream carries (catalogue or not, see `LiveEventViewer.catalogue`), or of a
 * conversation it may not see (the same rule as the REST visibility of conversations).
 */
export function shownName(viewer: LiveEventViewer, event: SerializedLiveEvent): string | null {
  const catalogue = event.name.startsWith(CATALOGUE_STREAM_PREFIX) ? event.name.slice(CATALOGUE_STREAM_PREFIX.length) : null;
  if (viewer.catalogue ? catalogue === null || !viewer.catalogue.has(catalogue) : catalogue !== null) return null;
  return mayReceive(viewer, event) ? (catalogue ?? event.name) : null;
}

/** Whether `viewer` may see `event`'s conversation (the same rule as the REST visibility of conversations). */
export function mayReceive(viewer: LiveEventViewer, event: SerializedLiveEvent): boolean {
  if (viewer.seesAll || event.audience === undefined) return true;
  return viewer.userId !== null && event.audience.includes(viewer.userId);
}

/** Where the fan-out delivers a workspace's events: one open SSE connection. */
export interface LiveEventSink {
  /** What the stream was opened with; it ends when that is revoked. */
  readonly credential: StreamCredential;
  deliver(event: SerializedLiveEvent): void;
  /** Ends the connection; the client reconnects (to any replica) and replays what it missed. */
  close(): void;
}

/** 503 text while the stream cannot be served (Redis unreachable, process shutting down). */
export const EVENTS_UNAVAILABLE = 'live events are unavailable, retry shortly';
