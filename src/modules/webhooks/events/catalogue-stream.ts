import { Injectable } from '@nestjs/common';
import { LiveEventsService } from '../../events/live-events.service.js';
import type { LiveEventAudience } from '../../events/live-event.types.js';
import type { OutboxEvent } from '../outbox/webhook-outbox.service.js';

/**
 * The live stream's copy of a catalogue event (`GET /api/events?events=…`, docs/events.md): the
 * very body a webhook receives, published after the commit that wrote it, whether or not any
 * webhook subscribed. Best effort, as every live event (Postgres and the outbox are the truth);
 * nothing is built in Redis while nobody watches the workspace.
 */
@Injectable()
export class CatalogueStream {
  constructor(private readonly live: LiveEventsService) {}

  async publish(workspaceId: string, event: Pick<OutboxEvent, 'event' | 'body'>, audience?: LiveEventAudience): Promise<void> {
    const body = typeof event.body === 'string' ? event.body : event.body.toString('utf8');
    await this.live.publishCatalogue(workspaceId, event.event, body, audience);
  }
}
