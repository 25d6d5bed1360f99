import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { IdPipe } from '../../inbox/dto/id.pipe.js';
import { AutomationsService } from './automations.service.js';
import { CreateAutomationDto, UpdateAutomationDto } from './dto/automation.dto.js';
import { AutomationResponse } from './dto/automation.response.js';

const AutomationId = new IdPipe('invalid automation id');
const NOT_FOUND = "`automation not found`: unknown, deleted, or another workspace's";
const INVALID =
  'an invalid condition or action, named with its place and what is allowed, e.g. ' +
  '`conditions[0].field: unknown field "foo" (one of content, chat_phone, is_group, message_type)`, ' +
  '`actions[1].type: unknown action "email" (one of reply, reply_template, assign, answer_from_knowledge, mark_read, add_label, set_status)`, ' +
  '`conditions[2].value: Invalid regular expression: /(/i: Unterminated group`, `actions[0]: template not found`, `actions[0].label_id must be a label id`, `actions[0].label_id: label not found`, `actions[0].status must be open, pending, snoozed or closed`, ' +
  '`actions[0].snooze_minutes must be an integer from 1 to 525600 (required for status snoozed)`, `actions[0].snooze_minutes is only for status snoozed`';

@ApiTags('automations')
@Controller('api/automations')
export class AutomationsController {
  constructor(private readonly automations: AutomationsService) {}

  @Get()
  @Member()
  @ApiOperation({ summary: 'The 500 newest automations' })
  @ApiOkResponse({ type: [AutomationResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<AutomationResponse[]> {
    return this.automations.list(actor.workspaceId);
  }

  @Post()
  @ConsoleOnly()
  @ApiOperation({ summary: 'Create an automation: a trigger, conditions (all or any) and actions run in order' })
  @ApiCreatedResponse({ type: AutomationResponse })
  @ApiErrors({ 400: INVALID })
  create(@Actor() actor: WorkspaceActor, @Body() dto: CreateAutomationDto): Promise<AutomationResponse> {
    return this.automations.create(actor.workspaceId, dto);
  }

  @Patch(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Change an automation: the fields present replace the stored ones (conditions and actions as whole lists)' })
  @ApiOkResponse({ type: AutomationResponse })
  @ApiErrors({ 400: ['invalid automation id', INVALID], 404: NOT_FOUND })
  update(@Actor() actor: WorkspaceActor, @Param('id', AutomationId) id: string, @Body() dto: UpdateAutomationDto): Promise<AutomationResponse> {
    return this.automations.update(actor.workspaceId, id, dto);
  }

  @Delete(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Delete an automation' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: 'invalid automation id', 404: NOT_FOUND })
  delete(@Actor() actor: WorkspaceActor, @Param('id', AutomationId) id: string): Promise<{ ok: true }> {
    return this.automations.delete(actor.workspaceId, id);
  }
}
