import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { randomToken, sha256Hex } from '../../../infra/crypto/hashing.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { MailService } from '../../../infra/mail/mail.service.js';
import type { SessionPrincipal, WorkspaceActor } from '../../auth/auth.types.js';
import { Clock } from '../../auth/clock/clock.js';
import type { AcceptInviteResponse, InviteResponse } from '../dto/invite.dto.js';
import type { Role } from '../entities/workspace-member.entity.js';
import { MemberRepository } from '../members/member.repository.js';
import { ONLY_OWNERS_MANAGE_OWNERS } from '../members/members.service.js';
import { toWorkspaceResponse } from '../workspaces/workspace.mapper.js';
import { WorkspaceRepository } from '../workspaces/workspace.repository.js';
import { inviteMail } from './invite-mail.js';
import { toInviteResponse } from './invite.mapper.js';
import { InviteRepository } from './invite.repository.js';

export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
export const INVITE_NOT_FOUND = 'invite not found';
export const INVALID_INVITE = 'invalid or expired invite';
export const INVITE_EMAIL_MISMATCH = 'this invite was sent to a different email address';
export const ALREADY_MEMBER = 'this person is already a member of the workspace';

@Injectable()
export class InvitesService {
  constructor(
    private readonly invites: InviteRepository,
    private readonly members: MemberRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly mail: MailService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** Stores the invite (token hashed) and mails the link; the token itself is never returned. */
  async create(actor: WorkspaceActor, email: string, role: Role): Promise<InviteResponse> {
    if (role === 'owner' && actor.role !== 'owner') throw ApiError.forbidden(ONLY_OWNERS_MANAGE_OWNERS);
    if (await this.members.isMemberByEmail(actor.workspaceId, email)) throw ApiError.conflict(ALREADY_MEMBER);

    const token = randomToken(32);
    const invite = await this.invites.create(actor.workspaceId, {
      email,
      role,
      tokenHash: sha256Hex(token),
      invitedBy: actor.userId,
      expiresAt: this.clock.date(INVITE_TTL_MS),
    });
    const [workspace, inviter] = await Promise.all([
      this.workspaces.find(actor.workspaceId),
      actor.userId ? this.members.find(actor.workspaceId, actor.userId) : null,
    ]);
    this.mail.dispatch(
      inviteMail({
        to: email,
        workspaceName: workspace?.name ?? '',
        inviterName: inviter?.name ?? '',
        role,
        link: `${this.config.publicUrl}/accept-invite?token=${encodeURIComponent(token)}`,
      }),
    );
    return toInviteResponse(invite);
  }

  async listPending(workspaceId: string): Promise<InviteResponse[]> {
    return (await this.invites.listPending(workspaceId, this.clock.date())).map(toInviteResponse);
  }

  async revoke(workspaceId: string, inviteId: string): Promise<{ ok: true }> {
    if (!(await this.invites.deletePending(workspaceId, inviteId))) throw ApiError.notFound(INVITE_NOT_FOUND);
    return { ok: true };
  }

  /**
   * Joins the signed-in user to the invite's workspace. The invite is addressed to a mailbox, so
   * only the account with that email may use it, even if the link was forwarded.
   */
  async accept(session: SessionPrincipal, token: string): Promise<AcceptInviteResponse> {
    const now = this.clock.date();
    const invite = await this.invites.findByTokenHash(sha256Hex(token));
    if (!invite || invite.acceptedAt || invite.expiresAt <= now) throw ApiError.badRequest(INVALID_INVITE);
    if (invite.email !== session.email.toLowerCase()) throw ApiError.forbidden(INVITE_EMAIL_MISMATCH);
    const role = await this.invites.accept(invite.workspaceId, invite.id, session.userId, now);
    if (!role) throw ApiError.badRequest(INVALID_INVITE);
    const workspace = await this.workspaces.find(invite.workspaceId);
    // The membership was just written; only a workspace deleted at this very moment is missing.
    if (!workspace) throw ApiError.badRequest(INVALID_INVITE);
    return { workspace: toWorkspaceResponse(workspace, role) };
  }
}
