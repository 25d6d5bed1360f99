import { Global, Module } from '@nestjs/common';
import { EventsController } from './events.controller.js';
import { LiveEventFanout } from './live-event-fanout.service.js';
import { LiveEventsService } from './live-events.service.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS, LIVE_EVENTS_OPTIONS } from './live-events.options.js';
import { LiveStreamService } from './live-stream.service.js';

/**
 * Live event stream (`GET /api/events`); `LiveEventsService` is injectable everywhere so any
 * module (and any process role) can publish. Tests override `LIVE_EVENTS_OPTIONS`.
 */
@Global()
@Module({
  controllers: [EventsController],
  providers: [
    { provide: LIVE_EVENTS_OPTIONS, useValue: DEFAULT_LIVE_EVENTS_OPTIONS },
    LiveEventsService,
    LiveEventFanout,
    LiveStreamService,
  ],
  exports: [LiveEventsService],
})
export class EventsModule {}
