import type { LiveEventsService } from '../src/modules/events/live-events.service.js';

/**
 * A live-event publisher for benchmarks that measure the database alone: nobody watches any
 * workspace, so ingest builds no events (as in production without an open stream) and anything
 * published anyway goes nowhere.
 */
export function silentLiveEvents(): LiveEventsService {
  const noop = async (): Promise<void> => undefined;
  return { publish: noop, publishAll: noop, watched: async () => new Set<string>() } as unknown as LiveEventsService;
}
