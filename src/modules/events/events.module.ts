import { Global, Module } from '@nestjs/common';
import { ClockModule } from '../auth/clock/clock.module.js';
import { AccessRevocations } from './access-revocations.js';
import { EventsController } from './events.controller.js';
import { LiveEventFanout } from './live-event-fanout.service.js';
import { LiveEventsService } from './live-events.service.js';
import { DEFAULT_LIVE_EVENTS_OPTIONS, LIVE_EVENTS_OPTIONS } from './live-events.options.js';
import { LiveStreamService } from './live-stream.service.js';
import { StreamAccessRepository } from './stream-access.repository.js';
import { StreamRecheckService } from './stream-recheck.service.js';

/**
 * Live event stream (`GET /api/events`); `LiveEventsService` is injectable everywhere so any
 * module (and any process role) can publish; `AccessRevocations` likewise, so the modules that
 * revoke credentials can end the streams opened with them. Tests override `LIVE_EVENTS_OPTIONS`.
 */
@Global()
@Module({
  imports: [ClockModule],
  controllers: [EventsController],
  providers: [
    { provide: LIVE_EVENTS_OPTIONS, useValue: DEFAULT_LIVE_EVENTS_OPTIONS },
    LiveEventsService,
    LiveEventFanout,
    LiveStreamService,
    AccessRevocations,
    StreamAccessRepository,
    StreamRecheckService,
  ],
  exports: [LiveEventsService, AccessRevocations],
})
export class EventsModule {}
