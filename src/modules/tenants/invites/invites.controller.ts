import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { SessionPrincipal, WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, SubscriptionExempt, UserOnly } from '../../auth/decorators/access.decorators.js';
import { Actor, CurrentSession } from '../../auth/decorators/actor.decorator.js';
import { ParseId } from '../common/parse-id.pipe.js';
import { AcceptInviteDto, AcceptInviteResponse, CreateInviteDto, InviteResponse } from '../dto/invite.dto.js';
import { ALREADY_MEMBER, INVALID_INVITE, INVITE_EMAIL_MISMATCH, INVITE_NOT_FOUND, InvitesService } from './invites.service.js';
import { ONLY_OWNERS_MANAGE_OWNERS } from '../members/members.service.js';

@ApiTags('invites')
@Controller('api/invites')
export class InvitesController {
  constructor(private readonly invites: InvitesService) {}

  @ConsoleOnly()
  @Post()
  @ApiOperation({ summary: 'Invite someone by email (the link is mailed, valid 7 days)' })
  @ApiCreatedResponse({ type: InviteResponse })
  @ApiErrors({ 403: `\`${ONLY_OWNERS_MANAGE_OWNERS}\`: an admin inviting an owner`, 409: ALREADY_MEMBER })
  create(@Actor() actor: WorkspaceActor, @Body() body: CreateInviteDto): Promise<InviteResponse> {
    return this.invites.create(actor, body.email, body.role);
  }

  // Reading stays possible without a subscription; inviting and revoking do not.
  @ConsoleOnly()
  @SubscriptionExempt()
  @Get()
  @ApiOperation({ summary: 'Pending invites of the selected workspace' })
  @ApiOkResponse({ type: [InviteResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<InviteResponse[]> {
    return this.invites.listPending(actor.workspaceId);
  }

  // Declared before ':id' routes for readability; POST /accept and DELETE /:id never collide.
  @UserOnly()
  @Post('accept')
  @HttpCode(200)
  @ApiOperation({ summary: "Accept an invite; the signed-in user's email must be the invited one" })
  @ApiOkResponse({ type: AcceptInviteResponse })
  @ApiErrors({ 400: INVALID_INVITE, 403: INVITE_EMAIL_MISMATCH })
  accept(@CurrentSession() session: SessionPrincipal, @Body() body: AcceptInviteDto): Promise<AcceptInviteResponse> {
    return this.invites.accept(session, body.token);
  }

  @ConsoleOnly()
  @Delete(':id')
  @ApiOperation({ summary: 'Revoke a pending invite' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 400: 'invalid invite id', 404: `\`${INVITE_NOT_FOUND}\`: unknown, already revoked or accepted, or another workspace's` })
  revoke(@Actor() actor: WorkspaceActor, @Param('id', new ParseId('invite')) id: string): Promise<{ ok: true }> {
    return this.invites.revoke(actor.workspaceId, id);
  }
}
