import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { IdPipe } from '../dto/id.pipe.js';
import { CreateLabelDto, LABEL_COLOR_RULE, LABEL_NAME_RULE, LabelResponse, UpdateLabelDto } from './dto/label.dto.js';
import { LABEL_EXISTS, LABELS_FULL, LabelsService } from './labels.service.js';

export const LabelId = new IdPipe('invalid label id');
const NOT_FOUND = "`label not found`: unknown, deleted, or another workspace's";

@ApiTags('labels')
@Controller('api/labels')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  @Member()
  @ApiOperation({ summary: "The workspace's labels, by name" })
  @ApiOkResponse({ type: [LabelResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<LabelResponse[]> {
    return this.labels.list(actor.workspaceId);
  }

  @Post()
  @ConsoleOnly()
  @ApiOperation({ summary: 'Create a label (owners and admins in the Console)' })
  @ApiCreatedResponse({ type: LabelResponse })
  @ApiErrors({ 400: [LABEL_NAME_RULE, LABEL_COLOR_RULE], 409: [LABEL_EXISTS, LABELS_FULL] })
  create(@Actor() actor: WorkspaceActor, @Body() dto: CreateLabelDto): Promise<LabelResponse> {
    return this.labels.create(actor.workspaceId, dto);
  }

  @Patch(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Rename or recolour a label' })
  @ApiOkResponse({ type: LabelResponse })
  @ApiErrors({ 400: ['invalid label id', LABEL_NAME_RULE, LABEL_COLOR_RULE], 404: NOT_FOUND, 409: LABEL_EXISTS })
  update(@Actor() actor: WorkspaceActor, @Param('id', LabelId) id: string, @Body() dto: UpdateLabelDto): Promise<LabelResponse> {
    return this.labels.update(actor.workspaceId, id, dto);
  }

  @Delete(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Delete a label; it comes off every conversation and contact that had it' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: 'invalid label id', 404: NOT_FOUND })
  delete(@Actor() actor: WorkspaceActor, @Param('id', LabelId) id: string): Promise<{ ok: true }> {
    return this.labels.delete(actor.workspaceId, id);
  }
}
