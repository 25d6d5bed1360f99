import { Injectable } from '@nestjs/common';
import type { LiveEventName } from './live-event.types.js';

/**
 * Publishes live events to every api replica (Redis pub/sub + a capped replay stream).
 * TODO(issue 5, events): implement fan-out and replay; callers already depend on this signature.
 */
@Injectable()
export class LiveEventsService {
  async publish(workspaceId: string, name: LiveEventName, data: Record<string, unknown>): Promise<void> {
    void workspaceId;
    void name;
    void data;
  }
}
