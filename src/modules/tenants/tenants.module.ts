import { Module } from '@nestjs/common';
import { MembershipRepository } from './members/membership.repository.js';

/** Workspaces, members, invites and subscriptions. */
@Module({
  providers: [MembershipRepository],
  exports: [MembershipRepository],
})
export class TenantsModule {}
