import type { Logger } from '@nestjs/common';

// While a dependency is away, every client reports each failed reconnect; one line a minute per
// source says the same without flooding the log.
const DEFAULT_INTERVAL_MS = 60_000;

/** Returns a `(source, error)` reporter that warns at most once per interval for each source. */
export function throttledWarning(logger: Logger, intervalMs = DEFAULT_INTERVAL_MS): (source: string, error: Error) => void {
  const lastLogged = new Map<string, number>();
  return (source, error) => {
    const now = Date.now();
    if (now - (lastLogged.get(source) ?? -Infinity) < intervalMs) return;
    lastLogged.set(source, now);
    logger.warn(`${source}: ${error.message}`);
  };
}
