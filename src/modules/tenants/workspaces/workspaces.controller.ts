import { Body, Controller, Get, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { SessionPrincipal, WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, Member, SubscriptionExempt, UserOnly } from '../../auth/decorators/access.decorators.js';
import { Actor, CurrentSession } from '../../auth/decorators/actor.decorator.js';
import { WorkspaceNameDto, WorkspaceResponse } from '../dto/workspace.dto.js';
import { WorkspaceService } from './workspace.service.js';

@ApiTags('workspaces')
@Controller('api')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspaceService) {}

  @UserOnly()
  @Post('workspaces')
  @ApiOperation({ summary: 'Create a workspace; the caller becomes its owner' })
  @ApiCreatedResponse({ type: WorkspaceResponse })
  create(@CurrentSession() session: SessionPrincipal, @Body() body: WorkspaceNameDto): Promise<WorkspaceResponse> {
    return this.workspaces.create(session.userId, body.name);
  }

  @UserOnly()
  @Get('workspaces')
  @ApiOperation({ summary: "The signed-in user's workspaces with their role" })
  @ApiOkResponse({ type: [WorkspaceResponse] })
  list(@CurrentSession() session: SessionPrincipal): Promise<WorkspaceResponse[]> {
    return this.workspaces.listForUser(session.userId);
  }

  @Member()
  @SubscriptionExempt()
  @Get('workspace')
  @ApiOperation({ summary: 'The selected workspace (reachable without a subscription, so billing can be fixed)' })
  @ApiOkResponse({ type: WorkspaceResponse })
  @ApiErrors({ 404: '`workspace not found`: deleted meanwhile' })
  get(@Actor() actor: WorkspaceActor): Promise<WorkspaceResponse> {
    return this.workspaces.get(actor);
  }

  @ConsoleOnly()
  @Patch('workspace')
  @ApiOperation({ summary: 'Rename the selected workspace' })
  @ApiOkResponse({ type: WorkspaceResponse })
  @ApiErrors({ 404: '`workspace not found`: deleted meanwhile' })
  rename(@Actor() actor: WorkspaceActor, @Body() body: WorkspaceNameDto): Promise<WorkspaceResponse> {
    return this.workspaces.rename(actor, body.name);
  }
}
