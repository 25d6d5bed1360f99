import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { Member } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { LiveStreamService } from './live-stream.service.js';

@ApiTags('events')
@Controller('api/events')
export class EventsController {
  constructor(private readonly streams: LiveStreamService) {}

  @Member()
  @Get()
  @ApiOperation({
    summary: 'Live event stream (Server-Sent Events)',
    description:
      'Events of the caller\'s workspace: `message.created`, `message.updated`, `conversation.updated` ' +
      '(agents only receive those of conversations that are unassigned or assigned to them), ' +
      '`sync.progress`, `session.updated`; each with an `id:`. Reconnect with `Last-Event-ID` to receive ' +
      'what was missed in the last 10 minutes. A `: keep-alive` comment every 25 s. See docs/events.md.',
  })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id' })
  @ApiQuery({ name: 'last_event_id', required: false, description: 'Same, for clients that cannot set headers' })
  @ApiOkResponse({ description: 'An endless `text/event-stream`' })
  // @Res() without passthrough: the handler owns the response, which stays open after it returns.
  async stream(
    @Actor() actor: WorkspaceActor,
    @Headers('last-event-id') header: string | undefined,
    @Query('last_event_id') query: unknown,
    @Res() res: Response,
  ): Promise<void> {
    await this.streams.open(actor, { header, query }, res);
  }
}
