/** Names of the live events sent on `GET /api/events` (api.md, "Live event stream"). */
export type LiveEventName = 'message.created' | 'message.updated' | 'conversation.updated' | 'sync.progress' | 'session.updated';

export interface LiveEvent {
  /** Stream id, sent as the SSE `id:` so clients can resume with `Last-Event-ID`. */
  id: string;
  name: LiveEventName;
  workspaceId: string;
  data: Record<string, unknown>;
}
