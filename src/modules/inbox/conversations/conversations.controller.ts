import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member, Roles } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { AssignConversationDto, StartConversationDto, UpdateConversationDto } from '../dto/conversation.dto.js';
import { ConversationId } from '../dto/id.pipe.js';
import type { ConversationResponse, MessageResponse } from '../inbox.mapper.js';
import { ConversationsService } from './conversations.service.js';
import { StartConversationService } from './start-conversation.service.js';

@ApiTags('inbox')
@Member()
@Controller('api/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly starter: StartConversationService,
  ) {}

  @Get()
  @ApiQuery({ name: 'status', required: false, enum: ['open', 'closed'] })
  @ApiQuery({ name: 'assignee', required: false, description: 'me, none or a user id' })
  list(@Actor() actor: WorkspaceActor, @Query('status') status: unknown, @Query('assignee') assignee: unknown): Promise<ConversationResponse[]> {
    return this.conversations.list(actor, status, assignee);
  }

  @Post()
  start(@Actor() actor: WorkspaceActor, @Body() dto: StartConversationDto): Promise<{ conversation: ConversationResponse; message: MessageResponse }> {
    return this.starter.start(actor, dto);
  }

  @Get(':id')
  get(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string): Promise<ConversationResponse> {
    return this.conversations.get(actor, id);
  }

  @Patch(':id')
  update(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: UpdateConversationDto): Promise<ConversationResponse> {
    return this.conversations.setStatus(actor, id, dto.status);
  }

  @Post(':id/read')
  @HttpCode(200)
  markRead(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string): Promise<{ ok: true }> {
    return this.conversations.markRead(actor, id);
  }

  @Post(':id/assign')
  @HttpCode(200)
  @Roles('admin', 'only admins can assign conversations')
  assign(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: AssignConversationDto): Promise<ConversationResponse> {
    return this.conversations.assign(actor, id, dto.user_id);
  }
}
