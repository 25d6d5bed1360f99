import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ConversationId } from '../dto/id.pipe.js';
import { MessagePageResponse, MessageResponse } from '../dto/inbox-responses.dto.js';
import { SendMessageDto } from '../dto/message.dto.js';
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
  @ApiQuery({ name: 'limit', required: false, description: '1..100, default 50' })
  @ApiQuery({ name: 'before', required: false, description: 'next_cursor of the previous page' })
  @ApiOkResponse({ type: MessagePageResponse })
  @ApiNotFoundResponse({ description: '`conversation not found`' })
  list(
    @Actor() actor: WorkspaceActor,
    @Param('id', ConversationId) id: string,
    @Query('limit') limit: unknown,
    @Query('before') before: unknown,
  ): Promise<MessagePageResponse> {
    return this.messages.list(actor, id, limit, before);
  }

  @Post()
  @ApiOperation({ summary: 'Send a text (`body`) or an image or document (`type`, `media`, `caption`)' })
  @ApiCreatedResponse({ type: MessageResponse, description: 'The message as stored; `status` moves on as the channel reports' })
  @ApiNotFoundResponse({ description: '`conversation not found`' })
  @ApiConflictResponse({ description: '`chat is not connected`' })
  send(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: SendMessageDto): Promise<MessageResponse> {
    return this.sender.send(actor, id, dto);
  }
}
