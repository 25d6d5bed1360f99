import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../../../infra/http/api-error.js';
import { accessRule, requestOf } from './access-rule.js';

/**
 * Step 6: owner/admin routes. Keys act as agents, so they are refused with the route's text too.
 * `accessRule` only sets `admin` on workspace routes, where the TenantGuard has resolved the actor.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const { admin } = accessRule(this.reflector, context);
    if (!admin) return true;
    const actor = requestOf(context).actor;
    if (!actor || actor.via === 'api_key' || actor.role === 'agent') throw ApiError.forbidden(admin.message);
    return true;
  }
}
