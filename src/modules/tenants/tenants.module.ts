import { Module } from '@nestjs/common';
import { MailModule } from '../../infra/mail/mail.module.js';
import { ClockModule } from '../auth/clock/clock.module.js';
import { InviteRepository } from './invites/invite.repository.js';
import { InvitesController } from './invites/invites.controller.js';
import { InvitesService } from './invites/invites.service.js';
import { MemberHooks } from './members/member-hooks.js';
import { MemberRepository } from './members/member.repository.js';
import { MembersController } from './members/members.controller.js';
import { MembersService } from './members/members.service.js';
import { MembershipRepository } from './members/membership.repository.js';
import { WorkspaceHooksModule } from './workspaces/workspace-hooks.module.js';
import { WorkspaceRepository } from './workspaces/workspace.repository.js';
import { WorkspaceService } from './workspaces/workspace.service.js';
import { WorkspacesController } from './workspaces/workspaces.controller.js';

/** Workspaces, members, invites and subscriptions. */
@Module({
  imports: [MailModule, ClockModule, WorkspaceHooksModule],
  controllers: [WorkspacesController, MembersController, InvitesController],
  providers: [MembershipRepository, WorkspaceRepository, WorkspaceService, MemberRepository, MemberHooks, MembersService, InviteRepository, InvitesService],
  // MemberHooks: modules that keep per-member state (the inbox's assignees) clean up on removal.
  // WorkspaceHooksModule: modules that attach something to every new workspace (webhook secrets).
  exports: [MembershipRepository, WorkspaceService, MemberHooks, WorkspaceHooksModule],
})
export class TenantsModule {}
