import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiConsumes, ApiExtension } from '@nestjs/swagger';

export const REQUIRE_JSON_KEY = 'csrf:require-json';

/**
 * A public state-changing route that only accepts `Content-Type: application/json`. A plain HTML
 * form on another site cannot send that type without a CORS preflight, so this stops cross-site
 * form posts (login CSRF, sign-up in someone else's browser) on routes that have no session yet.
 * Cookie-authenticated routes get the same rule from CsrfGuard without this decorator.
 */
export const RequireJson = (): MethodDecorator =>
  applyDecorators(SetMetadata(REQUIRE_JSON_KEY, true), ApiConsumes('application/json'), ApiExtension('x-requires-json', true));
