import { Body, Controller, Delete, Get, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, SessionOnly, SubscriptionExempt } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ParseId } from '../common/parse-id.pipe.js';
import { ChangeRoleDto, MemberResponse } from '../dto/member.dto.js';
import { LAST_OWNER, MEMBER_NOT_FOUND, MembersService, ONLY_OWNERS_MANAGE_OWNERS } from './members.service.js';

const MEMBER_ERRORS = {
  400: 'invalid user id',
  403: ONLY_OWNERS_MANAGE_OWNERS,
  404: `\`${MEMBER_NOT_FOUND}\`: not a member, or removed already`,
  409: LAST_OWNER,
};

@ApiTags('members')
@Controller('api/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  // Reading stays possible without a subscription (so an owner can sort out billing); changes do not.
  @SessionOnly()
  @SubscriptionExempt()
  @Get()
  @ApiOperation({ summary: 'Members of the selected workspace' })
  @ApiOkResponse({ type: [MemberResponse] })
  list(@Actor() actor: WorkspaceActor): Promise<MemberResponse[]> {
    return this.members.list(actor.workspaceId);
  }

  @ConsoleOnly()
  @Patch(':user_id')
  @ApiOperation({ summary: "Change a member's role (409 for the last owner)" })
  @ApiOkResponse({ type: MemberResponse })
  @ApiErrors(MEMBER_ERRORS)
  changeRole(@Actor() actor: WorkspaceActor, @Param('user_id', new ParseId('user')) userId: string, @Body() body: ChangeRoleDto): Promise<MemberResponse> {
    return this.members.changeRole(actor, userId, body.role);
  }

  @ConsoleOnly()
  @Delete(':user_id')
  @ApiOperation({ summary: 'Remove a member (409 for the last owner)' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors(MEMBER_ERRORS)
  remove(@Actor() actor: WorkspaceActor, @Param('user_id', new ParseId('user')) userId: string): Promise<{ ok: true }> {
    return this.members.remove(actor, userId);
  }
}
