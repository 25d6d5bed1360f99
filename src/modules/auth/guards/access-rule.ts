import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../../../infra/http/api-error.js';
import { ACCESS_KEY, ADMIN_KEY, ADMIN_REQUIRED, type AccessKind, type AccessRule, SUBSCRIPTION_EXEMPT_KEY } from '../decorators/access.decorators.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- what Nest hands out for handlers and classes
type Target = Function;

// Metadata never changes after bootstrap, and five guards ask for the same rule on every request.
// Keyed by class then handler: an inherited handler may sit under differently decorated classes.
const rules = new WeakMap<Target, WeakMap<Target, AccessRule>>();

/** The route's access rule; routes without a decorator are `member` routes (default deny). */
export function accessRule(reflector: Reflector, context: ExecutionContext): AccessRule {
  return accessRuleOf(reflector, context.getHandler(), context.getClass());
}

/**
 * The rule of one handler of one controller, from the decorators' metadata. Shared by the guards
 * and the route-permission snapshot test, so the snapshot shows exactly what the guards enforce.
 */
export function accessRuleOf(reflector: Reflector, handler: Target, controller: Target): AccessRule {
  let ofClass = rules.get(controller);
  if (!ofClass) rules.set(controller, (ofClass = new WeakMap()));
  const cached = ofClass.get(handler);
  if (cached) return cached;
  const targets = [handler, controller];
  const kind = reflector.getAllAndOverride<AccessKind | undefined>(ACCESS_KEY, targets) ?? 'member';
  const rule: AccessRule = {
    kind,
    admin: adminOf(reflector, kind, handler, controller),
    subscriptionExempt: reflector.getAllAndOverride<boolean | undefined>(SUBSCRIPTION_EXEMPT_KEY, targets) ?? false,
  };
  ofClass.set(handler, rule);
  return rule;
}

/**
 * Console routes always need an owner/admin. A class-level `@ConsoleOnly()` also stores that
 * requirement, which must not leak into a method that overrides the class with `@Member()` or
 * `@SessionOnly()`; and public or user routes have no workspace role to check at all.
 */
function adminOf(reflector: Reflector, kind: AccessKind, handler: Target, controller: Target): { message: string } | undefined {
  if (kind === 'console') return { message: ADMIN_REQUIRED };
  if (!isWorkspaceRoute(kind)) return undefined;
  const own = reflector.get<{ message: string } | undefined>(ADMIN_KEY, handler);
  if (own) return own;
  if (reflector.get<AccessKind | undefined>(ACCESS_KEY, controller) === 'console') return undefined;
  return reflector.get<{ message: string } | undefined>(ADMIN_KEY, controller);
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
 * Every workspace id the request names, in `X-Tenant-ID` and in `?tenant=` (both may be sent, and
 * `?tenant=` may repeat), lower-cased and without duplicates. Any malformed one is 400 `invalid
 * workspace id`: ignoring it would let `?tenant=a&tenant=b` slip past the key/workspace check.
 */
export function selectedWorkspaces(request: Request): string[] {
  const header = request.headers['x-tenant-id'];
  // Express re-parses the query string on every read of `request.query`: skip it when there is none.
  const query = request.url.includes('?') ? request.query?.tenant : undefined;
  if (header === undefined && query === undefined) return [];
  // An empty header is no header; an empty `?tenant=` names no workspace id, so it is malformed.
  const raw = [header === '' ? undefined : header, query].flat().filter((value): value is string => typeof value === 'string');
  if (raw.length === 0) return [];
  const ids = raw.map((value) => {
    const id = value.trim();
    if (!UUID.test(id)) throw ApiError.badRequest('invalid workspace id');
    return id.toLowerCase();
  });
  return [...new Set(ids)];
}

/**
 * The one workspace a session request selects: undefined when absent, 400 `invalid workspace id`
 * when malformed or when the header and the query name different workspaces (ambiguous).
 */
export function selectedWorkspace(request: Request): string | undefined {
  const ids = selectedWorkspaces(request);
  if (ids.length > 1) throw ApiError.badRequest('invalid workspace id');
  return ids[0];
}
