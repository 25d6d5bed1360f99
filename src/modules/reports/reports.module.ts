import { Module } from '@nestjs/common';
import { ClockModule } from '../auth/clock/clock.module.js';
import { InboxModule } from '../inbox/inbox.module.js';
import { FirstResponseHook } from './first-response.hook.js';
import { ReportsController } from './reports.controller.js';
import { ReportsRepository } from './reports.repository.js';
import { ReportsService } from './reports.service.js';

/**
 * Conversation reports (docs/inbox.md, "Reports"). The log is written by triggers on
 * `conversations` (openings, closings) and by `FirstResponseHook` in the inbox's send
 * transaction (InboxChangeHooks); this module reads it.
 */
@Module({
  imports: [InboxModule, ClockModule],
  controllers: [ReportsController],
  providers: [ReportsRepository, ReportsService, FirstResponseHook],
})
export class ReportsModule {}
