import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member, Roles } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { AssignConversationDto, StartConversationDto, UpdateConversationDto } from '../dto/conversation.dto.js';
import { ConversationId } from '../dto/id.pipe.js';
import { BODY_CONTENT_DIFFER } from '../dto/message.dto.js';
import { CLOUD_FILE_REFUSALS } from '../dto/message-request.schema.js';
import { ConversationResponse, StartedConversationResponse } from '../dto/inbox-responses.dto.js';
import { ConversationsService } from './conversations.service.js';
import { StartConversationService } from './start-conversation.service.js';

const NOT_FOUND = "`conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else";
const BAD_ID = 'invalid conversation id';

@ApiTags('inbox')
@Member()
@Controller('api/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly starter: StartConversationService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The 30 conversations with the most recent messages' })
  @ApiQuery({ name: 'status', required: false, schema: { type: 'string', enum: ['open', 'closed'] }, description: 'Only open or only closed conversations' })
  @ApiQuery({
    name: 'assignee',
    required: false,
    schema: {
      anyOf: [
        { type: 'string', enum: ['me', 'none'] },
        { type: 'string', format: 'uuid' },
      ],
    },
    description: "`me` (the signed-in user; not with an API key), `none` (unassigned) or a member's user id",
  })
  @ApiErrors({
    400: ['status must be open or closed', 'assignee must be me, none or a user id', 'assignee=me needs a signed-in user; use a user id with an API key'],
  })
  @ApiOkResponse({ type: [ConversationResponse] })
  list(@Actor() actor: WorkspaceActor, @Query('status') status: unknown, @Query('assignee') assignee: unknown): Promise<ConversationResponse[]> {
    return this.conversations.list(actor, status, assignee);
  }

  @Post()
  @ApiOperation({
    summary: 'Start a conversation with a phone number by sending it a first message, or without a message',
    description:
      '`{phone, body}` (or `content`, an alias of `body`) finds or creates the conversation with that number and sends the text; ' +
      'a first message of another kind takes the fields of `POST /api/conversations/{id}/messages` (`type` a file kind with `media`, ' +
      '`location`, `contacts`), with the same checks. ' +
      '`{phone}` alone only finds or creates it: `message` is null, and a text or a template is sent later with ' +
      '`POST /api/conversations/{id}/messages`. Either way a connected channel is needed (409 otherwise): the conversation belongs to it.',
  })
  @ApiCreatedResponse({ type: StartedConversationResponse })
  @ApiErrors({
    400: [
      'invalid phone number',
      '`message body is required`: `body` (or `content`) given but empty',
      BODY_CONTENT_DIFFER,
      'a first message of another kind refused as on `POST /api/conversations/{id}/messages` (`media is required for <type> messages`, ' +
        '`a voice note must be audio/ogg with the Opus codec`, `a sticker must be a WebP image (image/webp)`, `media is larger than <n> bytes …`, ' +
        '`location is required for location messages`, `contacts[i].phones[j] is not a phone number`, a refused `media.url`, …); nothing is stored',
      ...CLOUD_FILE_REFUSALS,
    ],
    404: '`conversation not found`: an agent starting a chat that is assigned to someone else',
    409: 'chat is not connected',
  })
  @ApiBadGatewayResponse({
    description:
      'The channel refused the message; the body also holds the `conversation` created before the send failed. Or the host of `media.url` failed ' +
      '(`media url answered HTTP <status>`, …): nothing is stored',
  })
  start(@Actor() actor: WorkspaceActor, @Body() dto: StartConversationDto): Promise<StartedConversationResponse> {
    return this.starter.start(actor, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One conversation' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors({ 400: BAD_ID, 404: NOT_FOUND })
  get(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string): Promise<ConversationResponse> {
    return this.conversations.get(actor, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Open or close a conversation' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors({ 400: [BAD_ID, 'status must be open or closed'], 404: NOT_FOUND })
  update(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: UpdateConversationDto): Promise<ConversationResponse> {
    return this.conversations.setStatus(actor, id, dto.status);
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark the conversation read (and send read receipts through the channel)' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: BAD_ID, 404: NOT_FOUND })
  markRead(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string): Promise<{ ok: true }> {
    return this.conversations.markRead(actor, id);
  }

  @Post(':id/assign')
  @HttpCode(200)
  @Roles('admin', 'only admins can assign conversations')
  @ApiOperation({ summary: 'Assign to a member, or unassign with `user_id: null` (owners and admins in the Console only)' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors({
    400: [BAD_ID, 'user_id is required (a member id, or null to unassign)', 'invalid user id', 'assignee must be a member of this workspace'],
    403: 'only admins can assign conversations',
    404: NOT_FOUND,
  })
  assign(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: AssignConversationDto): Promise<ConversationResponse> {
    return this.conversations.assign(actor, id, dto.user_id);
  }
}
