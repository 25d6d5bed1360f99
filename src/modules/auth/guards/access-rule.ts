import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../../../infra/http/api-error.js';
import {
  ACCESS_KEY,
  ADMIN_KEY,
  type AccessKind,
  type AccessRule,
  SUBSCRIPTION_EXEMPT_KEY,
} from '../decorators/access.decorators.js';

/** The route's access rule; routes without a decorator are `member` routes (default deny). */
export function accessRule(reflector: Reflector, context: ExecutionContext): AccessRule {
  const targets = [context.getHandler(), context.getClass()];
  return {
    kind: reflector.getAllAndOverride<AccessKind>(ACCESS_KEY, targets) ?? 'member',
    admin: reflector.getAllAndOverride<{ message: string }>(ADMIN_KEY, targets),
    subscriptionExempt: reflector.getAllAndOverride<boolean>(SUBSCRIPTION_EXEMPT_KEY, targets) ?? false,
  };
}

export function requestOf(context: ExecutionContext): Request {
  return context.switchToHttp().getRequest<Request>();
}

/** Routes that act inside one workspace (everything but public and user routes). */
export function isWorkspaceRoute(kind: AccessKind): boolean {
  return kind === 'member' || kind === 'session' || kind === 'console';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The workspace the request selects with `X-Tenant-ID` (or `?tenant=`): undefined when absent,
 * 400 `invalid workspace id` when it is not a UUID.
 */
export function selectedWorkspace(request: Request): string | undefined {
  const header = request.headers['x-tenant-id'];
  const query = request.query?.tenant;
  const raw = (Array.isArray(header) ? header[0] : header) ?? (typeof query === 'string' ? query : undefined);
  if (raw === undefined || raw === '') return undefined;
  if (!UUID.test(raw.trim())) throw ApiError.badRequest('invalid workspace id');
  return raw.trim().toLowerCase();
}
