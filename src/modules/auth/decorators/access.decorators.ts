import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiExtension } from '@nestjs/swagger';
import { API_KEY_SECURITY, SESSION_SECURITY } from '../../../infra/http/openapi.js';

/**
 * Who may call a route (docs/api.md#who-may-call-what):
 * - `public`:  anyone;
 * - `user`:    a signed-in session, no workspace;
 * - `member`:  an API key or a session member of the selected workspace (the default);
 * - `session`: a session member only (keys get 403 `API keys cannot administer workspaces`);
 * - `console`: a session owner or admin (keys as above, agents 403 `admin required`).
 */
export type AccessKind = 'public' | 'user' | 'member' | 'session' | 'console';

export interface AccessRule {
  kind: AccessKind;
  /** Requires an owner or admin; `message` is the 403 text for keys and agents. */
  admin?: { message: string };
  /** The route stays reachable when subscriptions are enforced and the workspace has none. */
  subscriptionExempt?: boolean;
}

export const ACCESS_KEY = 'access:kind';
export const ADMIN_KEY = 'access:admin';
export const SUBSCRIPTION_EXEMPT_KEY = 'access:subscription-exempt';

export const ADMIN_REQUIRED = 'admin required';

/** No authentication at all. */
export const Public = (): MethodDecorator & ClassDecorator => applyDecorators(SetMetadata(ACCESS_KEY, 'public'), ApiExtension('x-access', 'public'));

/** A signed-in user; no workspace is selected. */
export const UserOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ACCESS_KEY, 'user'), ApiCookieAuth(SESSION_SECURITY), ApiExtension('x-access', 'user'));

/** Any member of the selected workspace, with a session or an API key (the default for routes). */
export const Member = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ACCESS_KEY, 'member'), ApiBearerAuth(API_KEY_SECURITY), ApiCookieAuth(SESSION_SECURITY), ApiExtension('x-access', 'member'));

/** Session members only; API keys are refused with `API keys cannot administer workspaces`. */
export const SessionOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ACCESS_KEY, 'session'), ApiCookieAuth(SESSION_SECURITY), ApiExtension('x-access', 'session'));

/** Console administration: a session owner or admin of the selected workspace. */
export const ConsoleOnly = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, 'console'),
    SetMetadata(ADMIN_KEY, { message: ADMIN_REQUIRED }),
    ApiCookieAuth(SESSION_SECURITY),
    ApiExtension('x-access', 'console'),
  );

/**
 * Restricts a member route to owners and admins. Keys and agents get 403 with `message`
 * (for example `only admins can assign conversations`).
 */
export const Roles = (role: 'admin', message = ADMIN_REQUIRED): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(ADMIN_KEY, { message }), ApiExtension('x-roles', [role]));

/** Keeps the route usable without an active subscription, so an owner can still fix things. */
export const SubscriptionExempt = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(SUBSCRIPTION_EXEMPT_KEY, true), ApiExtension('x-subscription-exempt', true));
