import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { IdPipe } from '../../inbox/dto/id.pipe.js';
import {
  CreateQuickReplyDto,
  QUICK_REPLY_BODY_RULE,
  QuickReplyResponse,
  RENDER_CONVERSATION_RULE,
  RenderedQuickReplyResponse,
  RenderQuickReplyDto,
  SHORTCUT_RULE,
  UpdateQuickReplyDto,
} from './dto/quick-reply.dto.js';
import { QUICK_REPLIES_FULL, QUICK_REPLY_EXISTS, QuickRepliesService } from './quick-replies.service.js';

const QuickReplyId = new IdPipe('invalid quick reply id');
const NOT_FOUND = "`quick reply not found`: unknown, deleted, or another workspace's";

@ApiTags('quick replies')
@Controller('api/quick-replies')
export class QuickRepliesController {
  constructor(private readonly replies: QuickRepliesService) {}

  @Get()
  @Member()
  @ApiOperation({ summary: "The workspace's quick replies, by shortcut" })
  @ApiOkResponse({ type: [QuickReplyResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<QuickReplyResponse[]> {
    return this.replies.list(actor.workspaceId);
  }

  @Post()
  @ConsoleOnly()
  @ApiOperation({ summary: 'Create a quick reply (owners and admins in the Console)' })
  @ApiCreatedResponse({ type: QuickReplyResponse })
  @ApiErrors({ 400: [SHORTCUT_RULE, QUICK_REPLY_BODY_RULE], 409: [QUICK_REPLY_EXISTS, QUICK_REPLIES_FULL] })
  create(@Actor() actor: WorkspaceActor, @Body() dto: CreateQuickReplyDto): Promise<QuickReplyResponse> {
    return this.replies.create(actor.workspaceId, dto);
  }

  @Patch(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Change a quick reply' })
  @ApiOkResponse({ type: QuickReplyResponse })
  @ApiErrors({ 400: ['invalid quick reply id', SHORTCUT_RULE, QUICK_REPLY_BODY_RULE], 404: NOT_FOUND, 409: QUICK_REPLY_EXISTS })
  update(@Actor() actor: WorkspaceActor, @Param('id', QuickReplyId) id: string, @Body() dto: UpdateQuickReplyDto): Promise<QuickReplyResponse> {
    return this.replies.update(actor.workspaceId, id, dto);
  }

  @Delete(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Delete a quick reply' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: 'invalid quick reply id', 404: NOT_FOUND })
  delete(@Actor() actor: WorkspaceActor, @Param('id', QuickReplyId) id: string): Promise<{ ok: true }> {
    return this.replies.delete(actor.workspaceId, id);
  }

  @Post(':id/render')
  @HttpCode(200)
  @Member()
  @ApiOperation({
    summary: "A quick reply's text for a conversation, placeholders filled in (nothing is sent)",
    description:
      '`{{contact.name}}`, `{{contact.phone}}` (`+` and digits), `{{agent.name}}` (the signed-in member; empty for an API key), ' +
      '`{{conversation.name}}`; a value that is not known is empty, an unknown placeholder stays as typed.',
  })
  @ApiOkResponse({ type: RenderedQuickReplyResponse })
  @ApiErrors({
    400: ['invalid quick reply id', RENDER_CONVERSATION_RULE],
    404: [NOT_FOUND, "`conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else"],
  })
  render(@Actor() actor: WorkspaceActor, @Param('id', QuickReplyId) id: string, @Body() dto: RenderQuickReplyDto): Promise<RenderedQuickReplyResponse> {
    return this.replies.render(actor, id, dto.conversation_id);
  }
}
