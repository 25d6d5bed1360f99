import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../../../infra/http/api-error.js';
import { MembershipRepository } from '../../tenants/members/membership.repository.js';
import { accessRule, isWorkspaceRoute, requestOf, selectedWorkspace } from './access-rule.js';

/**
 * Step 5: resolves the workspace actor. A key acts in its own workspace; a session must select a
 * workspace (400) it is a member of (403).
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly memberships: MembershipRepository,
  ) {}

  // Not `async`: an API key's actor is known without a promise.
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (!isWorkspaceRoute(accessRule(this.reflector, context).kind)) return true;
    const request = requestOf(context);
    const principal = request.principal;
    if (!principal) throw ApiError.unauthorized();

    if (principal.type === 'api_key') {
      request.actor = {
        workspaceId: principal.workspaceId,
        via: 'api_key',
        role: 'agent',
        userId: null,
        apiKeyId: principal.keyId,
        subscriptionStatus: principal.subscriptionStatus,
        seesAllConversations: true,
      };
      return true;
    }

    const workspaceId = selectedWorkspace(request);
    if (!workspaceId) throw ApiError.badRequest('workspace required (X-Tenant-ID)');
    return this.memberships.find(workspaceId, principal.userId).then((membership) => {
      if (!membership) throw ApiError.forbidden('forbidden');
      request.actor = {
        workspaceId,
        via: 'session',
        role: membership.role,
        userId: principal.userId,
        apiKeyId: null,
        subscriptionStatus: membership.subscriptionStatus,
        seesAllConversations: membership.role !== 'agent',
      };
      return true;
    });
  }
}
