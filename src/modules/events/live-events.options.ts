/** Tunables of the live event stream; tests override them with short values. */
export interface LiveEventsOptions {
  /** A `: keep-alive` comment this often, so proxies do not close an idle stream (docs/events.md: 25 s). */
  keepAliveMs: number;
  /** How far back `Last-Event-ID` can replay: older entries are trimmed from the stream. */
  replayWindowMs: number;
  /** Upper bound of a workspace's stream whatever its age, so a burst cannot grow Redis without end. */
  maxStreamLength: number;
  /** The `retry:` a client waits before reconnecting (EventSource honours it). */
  retryMs: number;
  /** A client that lets this much unsent output pile up is dropped; it reconnects and replays. */
  maxBufferedBytes: number;
  /**
   * Every open stream's credential is checked again this often: the backstop for a revocation
   * signal that never arrived (Redis hiccup), so no stream outlives its credential for long.
   */
  recheckMs: number;
}

export const LIVE_EVENTS_OPTIONS = Symbol('LIVE_EVENTS_OPTIONS');

export const DEFAULT_LIVE_EVENTS_OPTIONS: LiveEventsOptions = {
  keepAliveMs: 25_000,
  replayWindowMs: 10 * 60_000,
  maxStreamLength: 5_000,
  retryMs: 3_000,
  maxBufferedBytes: 1024 * 1024,
  recheckMs: 30_000,
};
