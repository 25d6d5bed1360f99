import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Member } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { PROVIDER_DOWN_TEXT } from '../../channels/provider-down.js';
import { IdPipe } from '../../inbox/dto/id.pipe.js';
import { CreateTemplateDto, UpdateTemplateDto } from './dto/template.dto.js';
import { TemplateResponse } from './dto/template.response.js';
import { NO_PROVIDER, PROVIDER_TEMPLATE_READ_ONLY, TEMPLATE_EXISTS, TemplatesService } from './templates.service.js';

const TemplateId = new IdPipe('invalid template id');
const NOT_FOUND = "`template not found`: unknown, deleted, or another workspace's";
const BAD_BODY = ['template parameters must be numbered: {{1}}, {{2}}, …', '`template parameters must be numbered {{1}} to {{n}} without gaps`'];
const PROVIDER_DISCONNECTED = "`chat is not connected`: the Cloud API number's token was refused; save its settings again";
const PROVIDER_REFUSED =
  '`provider rejected the template request: <provider text>` with `provider_code`, `provider_subcode`, `provider_title` (Cloud API workspaces)';

@ApiTags('templates')
@Controller('api/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @Member()
  @ApiOperation({ summary: 'The 500 newest templates' })
  @ApiOkResponse({ type: [TemplateResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<TemplateResponse[]> {
    return this.templates.list(actor.workspaceId);
  }

  @Post()
  @ConsoleOnly()
  @ApiOperation({ summary: 'Create a template: local on a scan workspace, submitted to the provider on a Cloud API workspace' })
  @ApiCreatedResponse({ type: TemplateResponse })
  @ApiErrors({ 400: BAD_BODY, 409: [TEMPLATE_EXISTS, PROVIDER_DISCONNECTED], 502: PROVIDER_REFUSED, 503: PROVIDER_DOWN_TEXT })
  create(@Actor() actor: WorkspaceActor, @Body() dto: CreateTemplateDto): Promise<TemplateResponse> {
    return this.templates.create(actor.workspaceId, dto);
  }

  @Post('sync')
  @HttpCode(200)
  @ConsoleOnly()
  @ApiOperation({ summary: "Fetch the provider's first page of templates (up to 100) and store them; answers the templates synced" })
  @ApiOkResponse({ type: [TemplateResponse] })
  @ApiErrors({ 409: [NO_PROVIDER, PROVIDER_DISCONNECTED], 502: PROVIDER_REFUSED, 503: PROVIDER_DOWN_TEXT })
  sync(@Actor() actor: WorkspaceActor): Promise<TemplateResponse[]> {
    return this.templates.sync(actor.workspaceId);
  }

  @Patch(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: 'Change a local template (name, language, category, body)' })
  @ApiOkResponse({ type: TemplateResponse })
  @ApiErrors({ 400: ['invalid template id', ...BAD_BODY], 404: NOT_FOUND, 409: [TEMPLATE_EXISTS, PROVIDER_TEMPLATE_READ_ONLY] })
  update(@Actor() actor: WorkspaceActor, @Param('id', TemplateId) id: string, @Body() dto: UpdateTemplateDto): Promise<TemplateResponse> {
    return this.templates.update(actor.workspaceId, id, dto);
  }

  @Delete(':id')
  @ConsoleOnly()
  @ApiOperation({ summary: "Delete a template (a provider's template is deleted at the provider too)" })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: 'invalid template id', 404: NOT_FOUND, 409: PROVIDER_DISCONNECTED, 502: PROVIDER_REFUSED, 503: PROVIDER_DOWN_TEXT })
  delete(@Actor() actor: WorkspaceActor, @Param('id', TemplateId) id: string): Promise<{ ok: true }> {
    return this.templates.delete(actor.workspaceId, id);
  }
}
