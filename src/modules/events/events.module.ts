import { Global, Module } from '@nestjs/common';
import { LiveEventsService } from './live-events.service.js';

/** Live event stream (`GET /api/events`); `LiveEventsService` is injectable everywhere. */
@Global()
@Module({ providers: [LiveEventsService], exports: [LiveEventsService] })
export class EventsModule {}
