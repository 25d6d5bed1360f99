import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../infra/http/openapi.js';
import type { Response } from 'express';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { Member } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { EVENTS_UNAVAILABLE } from './live-event.types.js';
import { INVALID_LAST_EVENT_ID, INVALID_STREAM_EVENTS, LiveStreamService, STREAM_CATALOGUE_EVENTS } from './live-stream.service.js';
import { EVENT_STREAM_DESCRIPTION, EVENT_STREAM_EXAMPLE } from './event-stream.openapi.js';

@ApiTags('events')
@Controller('api/events')
export class EventsController {
  constructor(private readonly streams: LiveStreamService) {}

  @Member()
  @Get()
  @ApiOperation({
    summary: 'Live event stream (Server-Sent Events)',
    description:
      "Events of the caller's workspace: `message.created`, `message.updated`, `conversation.updated` " +
      '(agents only receive those of conversations that are unassigned or assigned to them), ' +
      '`contact.created`, `contact.updated`, `contact.deleted`, `note.created`, `sync.progress`, `session.updated`; each with an `id:`. Reconnect with `Last-Event-ID` to receive ' +
      'what was missed in the last 10 minutes. A `: keep-alive` comment every 25 s. The stream ends when ' +
      'its credential does (key revoked or expired, logout, membership removed or role changed). See docs/events.md.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    schema: { type: 'string', pattern: '^\\d+-\\d+$' },
    description: 'Resume after this event id (the last `id:` received)',
  })
  @ApiQuery({
    name: 'last_event_id',
    required: false,
    schema: { type: 'string', pattern: '^\\d+-\\d+$', example: '1700000000000-0' },
    description: 'The same as `Last-Event-ID`, for clients that cannot set headers; the header wins when both are sent',
  })
  @ApiQuery({
    name: 'events',
    required: false,
    schema: { type: 'string', example: 'message.status,message.sent' },
    description: `Comma-separated webhook catalogue types (${STREAM_CATALOGUE_EVENTS.map((name) => `\`${name}\``).join(', ')}): the stream then carries exactly those, each with the webhook's body as \`data\` and its type as \`event:\` (see the \`webhooks\` section), and none of the events above. Agents receive those of the conversations they may see.`,
  })
  @ApiOkResponse({
    description: EVENT_STREAM_DESCRIPTION,
    content: { 'text/event-stream': { schema: { type: 'string' }, example: EVENT_STREAM_EXAMPLE } },
  })
  @ApiErrors({ 400: [INVALID_LAST_EVENT_ID, INVALID_STREAM_EVENTS], 503: EVENTS_UNAVAILABLE })
  // @Res() without passthrough: the handler owns the response, which stays open after it returns.
  async stream(
    @Actor() actor: WorkspaceActor,
    @Headers('last-event-id') header: string | undefined,
    @Query('last_event_id') query: unknown,
    @Query('events') events: unknown,
    @Res() res: Response,
  ): Promise<void> {
    await this.streams.open(actor, { header, query }, res, events);
  }
}
