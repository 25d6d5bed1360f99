import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ContactId, ConversationId } from '../dto/id.pipe.js';
import { ContactResponse, ConversationResponse } from '../dto/inbox-responses.dto.js';
import { ApplyLabelDto, LABEL_ID_RULE } from './dto/label.dto.js';
import { LabelId } from './labels.controller.js';
import { LABEL_NOT_FOUND, LabelsService } from './labels.service.js';

const CONVERSATION_NOT_FOUND = "`conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else";
const CONTACT_NOT_FOUND = "`contact not found`: unknown, deleted, or another workspace's";
const LabelParam = (): MethodDecorator =>
  ApiParam({
    name: 'labelId',
    schema: { type: 'string', format: 'uuid' },
    description: 'the label (`GET /api/labels`); one the row does not carry changes nothing',
  });
const UNKNOWN_LABEL = `\`${LABEL_NOT_FOUND}\`: \`label_id\` names no label of this workspace`;

/** Putting labels on and taking them off: any member (and write keys) on what they see. */
@ApiTags('labels')
@Member()
@Controller('api')
export class LabellingController {
  constructor(private readonly labels: LabelsService) {}

  @Post('conversations/:id/labels')
  @HttpCode(200)
  @ApiOperation({ summary: 'Put a label on a conversation (no change when it has it); answers the conversation' })
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors({ 400: ['invalid conversation id', LABEL_ID_RULE, UNKNOWN_LABEL], 404: CONVERSATION_NOT_FOUND })
  labelConversation(@Actor() actor: WorkspaceActor, @Param('id', ConversationId) id: string, @Body() dto: ApplyLabelDto): Promise<ConversationResponse> {
    return this.labels.labelConversation(actor, id, dto.label_id);
  }

  @Delete('conversations/:id/labels/:labelId')
  @ApiOperation({ summary: 'Take a label off a conversation (no change when it does not have it); answers the conversation' })
  @LabelParam()
  @ApiOkResponse({ type: ConversationResponse })
  @ApiErrors({ 400: ['invalid conversation id', 'invalid label id'], 404: CONVERSATION_NOT_FOUND })
  unlabelConversation(
    @Actor() actor: WorkspaceActor,
    @Param('id', ConversationId) id: string,
    @Param('labelId', LabelId) labelId: string,
  ): Promise<ConversationResponse> {
    return this.labels.unlabelConversation(actor, id, labelId);
  }

  @Post('contacts/:id/labels')
  @HttpCode(200)
  @ApiOperation({ summary: 'Put a label on a contact (no change when it has it); answers the contact' })
  @ApiOkResponse({ type: ContactResponse })
  @ApiErrors({ 400: ['invalid contact id', LABEL_ID_RULE, UNKNOWN_LABEL], 404: CONTACT_NOT_FOUND })
  labelContact(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string, @Body() dto: ApplyLabelDto): Promise<ContactResponse> {
    return this.labels.labelContact(actor.workspaceId, id, dto.label_id);
  }

  @Delete('contacts/:id/labels/:labelId')
  @ApiOperation({ summary: 'Take a label off a contact (no change when it does not have it); answers the contact' })
  @LabelParam()
  @ApiOkResponse({ type: ContactResponse })
  @ApiErrors({ 400: ['invalid contact id', 'invalid label id'], 404: CONTACT_NOT_FOUND })
  unlabelContact(@Actor() actor: WorkspaceActor, @Param('id', ContactId) id: string, @Param('labelId', LabelId) labelId: string): Promise<ContactResponse> {
    return this.labels.unlabelContact(actor.workspaceId, id, labelId);
  }
}
