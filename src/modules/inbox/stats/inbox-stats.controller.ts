import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { InboxStatsResponse } from './inbox-stats.response.js';
import { BAD_DAYS, BAD_TIME_ZONE, DEFAULT_DAYS, InboxStatsService, MAX_DAYS, TIME_ZONE_PATTERN } from './inbox-stats.service.js';

@ApiTags('inbox')
@Member()
@Controller('api/inbox')
export class InboxStatsController {
  constructor(private readonly stats: InboxStatsService) {}

  @Get('stats')
  @ApiOperation({
    summary: 'Messages per day, open and unassigned conversations (the Console overview)',
    description: 'Agents count only the conversations they see (unassigned and their own).',
  })
  @ApiQuery({
    name: 'days',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_DAYS, default: DEFAULT_DAYS },
    description: 'How many days, today included',
  })
  @ApiQuery({
    name: 'tz',
    required: false,
    schema: { type: 'string', pattern: TIME_ZONE_PATTERN.source, default: 'UTC', example: 'Europe/Berlin' },
    description:
      'IANA time zone the days are counted in: a name of the tz database (`Europe/Berlin`, `UTC`) or one of its aliases (`US/Pacific`, `utc`); ' +
      '`timezone` in the answer is its canonical name. A name the tz database does not have is 400 like a malformed one.',
  })
  @ApiOkResponse({ type: InboxStatsResponse })
  @ApiErrors({ 400: [BAD_DAYS, BAD_TIME_ZONE] })
  read(@Actor() actor: WorkspaceActor, @Query('days') days: unknown, @Query('tz') tz: unknown): Promise<InboxStatsResponse> {
    return this.stats.read(actor, days, tz);
  }
}
