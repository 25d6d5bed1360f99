/** Tunables of the updates that wait for their message (message-updates.service.ts); tests override them. */
export interface PendingUpdatesOptions {
  /** An update whose message has not arrived after this long is dropped (and counted). */
  ttlMs: number;
  /** How often each worker process looks for waiting updates whose message arrived. */
  sweepIntervalMs: number;
}

export const PENDING_UPDATES_OPTIONS = Symbol('PENDING_UPDATES_OPTIONS');

export const DEFAULT_PENDING_UPDATES_OPTIONS: PendingUpdatesOptions = {
  // Long enough for a phone's offline queue or a Cloud API retry to deliver the message itself.
  ttlMs: 5 * 60_000,
  sweepIntervalMs: 1000,
};
