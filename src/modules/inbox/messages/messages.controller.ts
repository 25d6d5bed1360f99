import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ConversationId } from '../dto/id.pipe.js';
import { SendMessageDto } from '../dto/message.dto.js';
import type { MessageResponse } from '../inbox.mapper.js';
import { type MessagePage, MessagesService } from './messages.service.js';
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
  @ApiQuery({ name: 'limit', required: false, description: '1..100, default 50' })
  @ApiQuery({ name: 'before', required: false, description: 'next_cursor of the previous page' })
  list(
    @Actor() actor: WorkspaceActor,
    @Param('id', ConversationId) id: string,
    @Query('limit') limit: unknown,
    @Query('before') before: unknown,
  ): Promise<MessagePage> {
    return this.messages.list(actor, id, limit, before);
  }

  @Post()
  send(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: SendMessageDto): Promise<MessageResponse> {
    return this.sender.send(actor, id, dto);
  }
}
