import { createContext, type ComponentChildren, type JSX } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';

// The workspace's live event stream (`GET /api/events`, Server-Sent Events). One EventSource per
// tab; pages subscribe to the event names they show. EventSource cannot send headers, so the
// workspace goes in `?tenant=`; the browser resends the last id (`Last-Event-ID`) when it
// reconnects, and the service replays what was missed.

export type LiveEventName =
  | 'message.created'
  | 'message.updated'
  | 'conversation.updated'
  | 'sync.progress'
  | 'session.updated'
  | 'contact.created'
  | 'contact.updated'
  | 'contact.deleted'
  | 'note.created';

const EVENT_NAMES: LiveEventName[] = [
  'message.created',
  'message.updated',
  'conversation.updated',
  'sync.progress',
  'session.updated',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'note.created',
];

type Handler = (data: unknown) => void;

interface LiveValue {
  state: 'connecting' | 'live' | 'offline';
  subscribe: (name: LiveEventName, handler: Handler) => () => void;
}

const LiveContext = createContext<LiveValue>({ state: 'offline', subscribe: () => () => undefined });

// After the service refused the stream (EventSource gives up on a non-200 answer), try again later.
const RETRY_MS = 5000;

export function LiveProvider({ workspaceId, children }: { workspaceId: string | null; children: ComponentChildren }): JSX.Element {
  const handlers = useRef(new Map<LiveEventName, Set<Handler>>());
  const [state, setState] = useState<LiveValue['state']>('offline');

  useEffect(() => {
    if (!workspaceId) return undefined;
    let source: EventSource | null = null;
    let retry: number | undefined;
    let stopped = false;
    const open = (): void => {
      setState('connecting');
      source = new EventSource(`/api/events?tenant=${encodeURIComponent(workspaceId)}`);
      source.onopen = () => setState('live');
      source.onerror = () => {
        if (stopped || !source) return;
        if (source.readyState === EventSource.CLOSED) {
          setState('offline');
          retry = window.setTimeout(open, RETRY_MS);
        } else setState('connecting');
      };
      for (const name of EVENT_NAMES) {
        source.addEventListener(name, (event) => {
          let data: unknown;
          try {
            data = JSON.parse((event as MessageEvent<string>).data);
          } catch {
            return;
          }
          for (const handler of handlers.current.get(name) ?? []) handler(data);
        });
      }
    };
    open();
    return () => {
      stopped = true;
      window.clearTimeout(retry);
      source?.close();
      setState('offline');
    };
  }, [workspaceId]);

  const subscribe = useCallback((name: LiveEventName, handler: Handler) => {
    const set = handlers.current.get(name) ?? new Set<Handler>();
    set.add(handler);
    handlers.current.set(name, set);
    return () => {
      set.delete(handler);
    };
  }, []);
  const value = useMemo<LiveValue>(() => ({ state, subscribe }), [state, subscribe]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

export function useLiveState(): LiveValue['state'] {
  return useContext(LiveContext).state;
}

/** Calls `handler` with each event `name` of the workspace while the component is mounted. */
export function useLiveEvent<T>(name: LiveEventName, handler: (data: T) => void): void {
  const { subscribe } = useContext(LiveContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => subscribe(name, (data) => latest.current(data as T)), [subscribe, name]);
}
