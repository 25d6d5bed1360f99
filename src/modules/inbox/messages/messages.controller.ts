import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ConversationId } from '../dto/id.pipe.js';
import { MessagePageResponse, MessageResponse } from '../dto/inbox-responses.dto.js';
import { BODY_CONTENT_DIFFER, SendMessageDto } from '../dto/message.dto.js';
import { MessagesService } from './messages.service.js';
import { SendMessageService } from './send-message.service.js';

@ApiTags('inbox')
@Member()
@Controller('api/conversations/:id/messages')
export class MessagesController {
  constructor(
    private readonly messages: MessagesService,
    private readonly sender: SendMessageService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Messages of a conversation, newest first, one page at a time' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 }, description: 'Messages per page' })
  @ApiQuery({
    name: 'before',
    required: false,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,120}$' },
    description: 'The `next_cursor` of the previous page (opaque): the page of messages older than it',
  })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiErrors({ 400: ['invalid conversation id', 'limit must be an integer between 1 and 100', 'invalid cursor'], 404: 'conversation not found' })
  list(
    @Actor() actor: WorkspaceActor,
    @Param('id', ConversationId) id: string,
    @Query('limit') limit: unknown,
    @Query('before') before: unknown,
  ): Promise<MessagePageResponse> {
    return this.messages.list(actor, id, limit, before);
  }

  @Post()
  @ApiOperation({
    summary:
      'Send a text (`body`, or its alias `content`), an image or document (`type`, `media`, `caption`), or a template (`type: "template"`, `template_id`, `parameters`)',
    description:
      'A template is stored and shown as its filled-in text; a Cloud API template goes out by name on a meta conversation, ' +
      'any other template as the filled-in text.',
  })
  @ApiCreatedResponse({ type: MessageResponse, description: 'The message as stored; `status` moves on as the channel reports' })
  @ApiErrors({
    400: [
      'invalid conversation id',
      'message body is required',
      BODY_CONTENT_DIFFER,
      'media is required for image and document messages',
      'an invalid `media` (the text names the problem)',
      '`media.url` refused, nothing stored: `media url must be an http or https address`, `media url points to a private or local address`, `media is larger than <n> bytes`, `media url did not answer an image`, `media url host <host> could not be resolved`',
      'template_id is required for template messages',
      'invalid template id',
      '`template parameter {{n}} is missing (the template takes n)`, `template parameter {{n}} is empty`, `the template takes n parameters, m were given`',
      'parameters must be an array of at most 100 strings of at most 1024 characters',
    ],
    404: ['conversation not found', "`template not found`: unknown or another workspace's"],
    409: 'chat is not connected',
    500: 'the channel failed to send; the text says why, and the message is stored with `status: "failed"`',
    502: 'the host of `media.url` failed (`media url answered HTTP <status>`, `media url could not be fetched`, …); nothing is stored, retry later',
  })
  send(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: SendMessageDto): Promise<MessageResponse> {
    return this.sender.send(actor, id, dto);
  }
}
