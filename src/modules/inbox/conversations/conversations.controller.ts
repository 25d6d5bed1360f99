import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { BODY_NOT_AN_OBJECT } from '../../../infra/http/validation.pipe.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member, Roles } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { CHANNEL_NAMES } from '../../channels/channel-gateway.port.js';
import { ConversationCountsResponse } from '../dto/conversation-counts.dto.js';
import { AssignConversationDto, StartConversationDto, UpdateConversationDto } from '../dto/conversation.dto.js';
import { CONVERSATION_STATUSES } from '../entities/conversation.entity.js';
import { ConversationId } from '../dto/id.pipe.js';
import { BODY_CONTENT_DIFFER } from '../dto/message.dto.js';
import { CLOUD_FILE_REFUSALS } from '../dto/message-request.schema.js';
import { ConversationResponse, StartedConversationResponse } from '../dto/inbox-responses.dto.js';
import {
  ASSIGNEE_INVALID,
  ASSIGNEE_ME_WITH_KEY,
  CHANNEL_INVALID,
  CONVERSATION_PAGE,
  type ConversationListParams,
  CURSOR_INVALID,
  LABEL_INVALID,
  LIMIT_INVALID,
  MAX_CONVERSATION_PAGE,
  MAX_CONVERSATION_QUERY,
  Q_TOO_LONG,
  Q_TWICE,
  STATUS_INVALID,
  UNREAD_INVALID,
} from './conversation-list.query.js';
import { ConversationListService } from './conversation-list.service.js';
import {
  SNOOZE_FORMAT,
  SNOOZE_NOT_FUTURE,
  SNOOZE_ONLY_SNOOZED,
  SNOOZE_REQUIRED,
  SNOOZE_TOO_FAR,
  ConversationStatusService,
} from './conversation-status.service.js';
import { ConversationsService } from './conversations.service.js';
import { NOT_ON_WHATSAPP, StartConversationService } from './start-conversation.service.js';
import { SEND_CAP_REFUSALS } from '../outbound/send-caps.service.js';
import { NO_TYPING_HERE, ConversationTypingService, TYPING_DURATION_RULE, TYPING_NOT_SENT, TYPING_STATE_RULE } from './conversation-typing.service.js';
import { TypingDto } from '../dto/typing.dto.js';

const NOT_FOUND = "`conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else";
const BAD_ID = 'invalid conversation id';

@ApiTags('inbox')
@Member()
@Controller('api/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly lists: ConversationListService,
    private readonly statuses: ConversationStatusService,
    private readonly starter: StartConversationService,
    private readonly typingIndicator: ConversationTypingService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Conversations with the most recent messages first, filtered, in pages',
    description:
      'Without parameters: the 30 most recent. Every filter combines with the others. When more pages exist the response has the header ' +
      '`X-Next-Cursor`: pass it as `before` for the next page (keep the other parameters). The pages are a snapshot walk: a conversation ' +
      'that existed when page 1 was read is listed once, where it stood then, however new messages reorder the list meanwhile ' +
      '(conversations created since are on a fresh page 1).',
  })
  @ApiQuery({
    name: 'status',
    required: false,
    schema: { type: 'string', enum: [...CONVERSATION_STATUSES] },
    description: 'Only conversations with this status',
  })
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
  @ApiQuery({
    name: 'label',
    required: false,
    schema: { type: 'string', format: 'uuid' },
    description: 'Only conversations with this label (`GET /api/labels`)',
  })
  @ApiQuery({ name: 'channel', required: false, schema: { type: 'string', enum: [...CHANNEL_NAMES] }, description: 'Only conversations of this channel' })
  @ApiQuery({
    name: 'unread',
    required: false,
    schema: { type: 'string', enum: ['true', 'false'] },
    description: '`true`: with unread inbound messages; `false`: none',
  })
  @ApiQuery({
    name: 'q',
    required: false,
    schema: { type: 'string', maxLength: MAX_CONVERSATION_QUERY },
    description: 'A case-insensitive part of the chat name, or digits of the phone number (`?q=` searches nothing)',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_CONVERSATION_PAGE, default: CONVERSATION_PAGE },
    description: 'Conversations per page',
  })
  @ApiQuery({
    name: 'before',
    required: false,
    schema: { type: 'string', minLength: 1 },
    description: 'The `X-Next-Cursor` header of the previous page (opaque): the page after it',
  })
  @ApiErrors({
    400: [
      STATUS_INVALID,
      ASSIGNEE_INVALID,
      ASSIGNEE_ME_WITH_KEY,
      LABEL_INVALID,
      CHANNEL_INVALID,
      UNREAD_INVALID,
      LIMIT_INVALID,
      CURSOR_INVALID,
      Q_TOO_LONG,
      Q_TWICE,
    ],
  })
  @ApiOkResponse({
    type: [ConversationResponse],
    headers: {
      'X-Next-Cursor': {
        description: 'Present when more conversations follow: the `before` of the next page (opaque). Absent on the last page',
        schema: { type: 'string' },
      },
    },
  })
  async list(
    @Actor() actor: WorkspaceActor,
    @Query() query: ConversationListParams,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ConversationResponse[]> {
    const page = await this.lists.list(actor, query);
    if (page.nextCursor) response.setHeader('X-Next-Cursor', page.nextCursor);
    return page.conversations;
  }

  // Before the `:id` routes, which would take `counts` for an id.
  @Get('counts')
  @ApiOperation({
    summary: 'How many conversations each filter of the list finds, for tabs and badges',
    description:
      'Of the conversations the caller sees (an agent: unassigned and their own). `status` counts every status; `assignee`, `unread` ' +
      'and `labels` count within `?status=` (default `open`). `mine` is 0 for an API key.',
  })
  @ApiQuery({
    name: 'status',
    required: false,
    schema: { type: 'string', enum: [...CONVERSATION_STATUSES] },
    description: 'The status the other figures count within (default `open`)',
  })
  @ApiOkResponse({ type: ConversationCountsResponse })
  @ApiErrors({ 400: STATUS_INVALID })
  counts(@Actor() actor: WorkspaceActor, @Query('status') status: unknown): Promise<ConversationCountsResponse> {
    return this.lists.counts(actor, status);
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
      `\`${NOT_ON_WHATSAPP}\`: a number linked by QR code checked the number (its cache, else WhatsApp) before starting a chat the contact never wrote in; nothing is stored`,
    ],
    404: '`conversation not found`: an agent starting a chat that is assigned to someone else',
    409: 'chat is not connected',
    429: SEND_CAP_REFUSALS,
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
  @ApiOperation({
    summary: 'Set the status: open, pending, snoozed (until `snoozed_until`) or closed',
    description:
      '`snoozed` needs `snoozed_until`, a future time at most 365 days ahead; the conversation opens again by itself then, or with the ' +
      "customer's next message. Any other status clears `snoozed_until`. Whether the time is ahead is checked once the conversation is found.",
  })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors({
    400: [BAD_ID, STATUS_INVALID, SNOOZE_REQUIRED, SNOOZE_ONLY_SNOOZED, SNOOZE_FORMAT, SNOOZE_NOT_FUTURE, SNOOZE_TOO_FAR],
    404: NOT_FOUND,
  })
  update(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: UpdateConversationDto): Promise<ConversationResponse> {
    return this.statuses.setStatus(actor, id, { status: dto.status, snoozedUntil: dto.snoozed_until });
  }

  @Post(':id/read')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark the conversation read (and send read receipts through the channel)' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: BAD_ID, 404: NOT_FOUND })
  markRead(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string): Promise<{ ok: true }> {
    return this.conversations.markRead(actor, id);
  }

  @Post(':id/typing')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Show the contact "typing…" (`composing`), "recording audio…" (`recording`), or stop it (`paused`)',
    description:
      'Body `{state?, duration_ms?}`: `state` defaults to `composing`; with `duration_ms` (1 to 30000) the indicator stops by itself then. ' +
      'WhatsApp clears it when a message arrives, or after about 25 s. Numbers linked by QR code only',
  })
  @ApiBody({ type: TypingDto, required: false })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({
    400: [BAD_ID, BODY_NOT_AN_OBJECT, TYPING_STATE_RULE, TYPING_DURATION_RULE, NO_TYPING_HERE],
    404: NOT_FOUND,
    409: 'chat is not connected',
    502: TYPING_NOT_SENT,
  })
  typing(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() body: unknown): Promise<{ ok: true }> {
    return this.typingIndicator.typing(actor, id, body);
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
