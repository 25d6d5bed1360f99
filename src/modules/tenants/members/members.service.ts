import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { AccessRevocations } from '../../events/access-revocations.js';
import type { MemberResponse } from '../dto/member.dto.js';
import type { Role } from '../entities/workspace-member.entity.js';
import { MemberHooks } from './member-hooks.js';
import { toMemberResponse } from './member.mapper.js';
import { MemberRepository } from './member.repository.js';

export const MEMBER_NOT_FOUND = 'member not found';
export const ONLY_OWNERS_MANAGE_OWNERS = 'only an owner can make or change owners';
export const LAST_OWNER = 'the last owner of a workspace cannot be demoted or removed';

/**
 * Roles: owners and admins administer (the guard chain lets only them reach the changing routes);
 * only an owner touches owners; a workspace always keeps at least one owner.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MemberRepository,
    private readonly hooks: MemberHooks,
    private readonly revocations: AccessRevocations,
  ) {}

  async list(workspaceId: string): Promise<MemberResponse[]> {
    return (await this.members.list(workspaceId)).map(toMemberResponse);
  }

  /**
   * The member's open event streams end after the change (they were filtered for the old role);
   * the Console reconnects with the new one.
   */
  async changeRole(actor: WorkspaceActor, userId: string, role: Role): Promise<MemberResponse> {
    const changed = await this.members.withOwnersLocked(actor.workspaceId, async (tx) => {
      const target = await this.members.find(actor.workspaceId, userId, tx);
      if (!target) throw ApiError.notFound(MEMBER_NOT_FOUND);
      if ((target.role === 'owner' || role === 'owner') && actor.role !== 'owner') throw ApiError.forbidden(ONLY_OWNERS_MANAGE_OWNERS);
      if (target.role === 'owner' && role !== 'owner' && (await this.members.countOwners(actor.workspaceId, tx)) <= 1) {
        throw ApiError.conflict(LAST_OWNER);
      }
      await this.members.updateRole(actor.workspaceId, userId, role, tx);
      return { response: toMemberResponse({ ...target, role }), from: target.role };
    });
    if (changed.from !== role) await this.revocations.publish({ kind: 'member', workspaceId: actor.workspaceId, userId });
    return changed.response;
  }

  /**
   * Removes the member, and lets other modules clean up after them in the same transaction (the
   * inbox unassigns their conversations, which no agent could see otherwise). Their open event
   * streams end.
   */
  async remove(actor: WorkspaceActor, userId: string): Promise<{ ok: true }> {
    const event = { workspaceId: actor.workspaceId, userId };
    const afterCommit = await this.members.withOwnersLocked(actor.workspaceId, async (tx) => {
      const target = await this.members.find(actor.workspaceId, userId, tx);
      if (!target) throw ApiError.notFound(MEMBER_NOT_FOUND);
      if (target.role === 'owner') {
        if (actor.role !== 'owner') throw ApiError.forbidden(ONLY_OWNERS_MANAGE_OWNERS);
        if ((await this.members.countOwners(actor.workspaceId, tx)) <= 1) throw ApiError.conflict(LAST_OWNER);
      }
      await this.members.remove(actor.workspaceId, userId, tx);
      return this.hooks.memberRemoved({ ...event, tx });
    });
    await this.revocations.publish({ kind: 'member', ...event });
    await this.hooks.afterCommit(afterCommit, event);
    return { ok: true };
  }
}
