import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../infra/http/openapi.js';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { Member } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { ConversationReportResponse } from './dto/conversation-report.response.js';
import { BAD_FROM, BAD_TIME_ZONE, BAD_TO, FROM_AFTER_TO, MAX_REPORT_DAYS, RANGE_TOO_LONG, TIME_ZONE_PATTERN } from './report-range.js';
import { REPORTS_FOR_ADMINS, ReportsService } from './reports.service.js';

const DATE_SCHEMA = { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', example: '2026-11-22' } as const;

@ApiTags('reports')
@Member()
@Controller('api/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('conversations')
  @ApiOperation({
    summary: 'Conversations opened and closed, first-response and resolution times, per day and per agent',
    description:
      'Owners, admins and API keys (read keys too); agents are refused. An opening is a conversation created, or one leaving `closed` ' +
      '(an inbound message reopening it, or a status change); a first response is the first message a person sent (Console or API: ' +
      'not automations, not the phone, not history) after the opening’s first inbound message; resolution is opening to closing. ' +
      'Events count on the day (in `tz`) they happened.',
  })
  @ApiQuery({ name: 'from', required: false, schema: { ...DATE_SCHEMA }, description: 'First day, inclusive (default: 13 days before `to`)' })
  @ApiQuery({
    name: 'to',
    required: false,
    schema: { ...DATE_SCHEMA },
    description: `Last day, inclusive (default: today in \`tz\`); at most ${MAX_REPORT_DAYS} days in all`,
  })
  @ApiQuery({
    name: 'tz',
    required: false,
    schema: { type: 'string', pattern: TIME_ZONE_PATTERN.source, default: 'UTC', example: 'Europe/Berlin' },
    description: 'IANA time zone the days are counted in (a name of the tz database or one of its aliases); `timezone` answers its canonical name.',
  })
  @ApiOkResponse({ type: ConversationReportResponse })
  @ApiErrors({ 400: [BAD_FROM, BAD_TO, FROM_AFTER_TO, RANGE_TOO_LONG, BAD_TIME_ZONE], 403: `\`${REPORTS_FOR_ADMINS}\`: an agent` })
  conversations(
    @Actor() actor: WorkspaceActor,
    @Query('from') from: unknown,
    @Query('to') to: unknown,
    @Query('tz') tz: unknown,
  ): Promise<ConversationReportResponse> {
    return this.reports.conversations(actor, from, to, tz);
  }
}
