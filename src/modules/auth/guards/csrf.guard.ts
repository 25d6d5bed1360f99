import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { REQUIRE_JSON_KEY } from '../decorators/require-json.decorator.js';
import { requestOf } from './access-rule.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CSRF_JSON_REQUIRED = 'cross-site request refused: Content-Type must be application/json';
export const CSRF_ORIGIN_REFUSED = 'cross-site request refused: origin not allowed';

/**
 * Step 2b (after SessionGuard): a cookie is sent by the browser whoever wrote the page, so a
 * state-changing request authenticated by the session cookie must prove it came from our own
 * pages: it must be JSON (a cross-site form cannot send that without a preflight) and, when the
 * browser says where it comes from (`Origin`), that origin must be ours (PUBLIC_URL) or listed
 * explicitly in CORS_ORIGINS. `CORS_ORIGINS=*` allows any origin to read public responses, never
 * to act with someone's cookie. API-key requests carry no ambient credential and are exempt.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly allowedOrigins: ReadonlySet<string>;

  constructor(
    private readonly reflector: Reflector,
    config: AppConfig,
  ) {
    const explicit = config.corsOrigins === '*' ? [] : config.corsOrigins;
    this.allowedOrigins = new Set([config.publicUrl, ...explicit].map(originOf).filter((o): o is string => o !== null));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = requestOf(context);
    if (SAFE_METHODS.has(request.method)) return true;
    const viaCookie = request.principal?.type === 'session';
    const publicJsonRoute = this.reflector.get<boolean | undefined>(REQUIRE_JSON_KEY, context.getHandler()) === true;
    if (!viaCookie && !publicJsonRoute) return true;

    if (!isJson(request)) throw ApiError.forbidden(CSRF_JSON_REQUIRED);
    if (viaCookie) {
      const origin = request.headers.origin;
      if (origin !== undefined && !this.allowedOrigins.has(originOf(origin) ?? '')) throw ApiError.forbidden(CSRF_ORIGIN_REFUSED);
    }
    return true;
  }
}

function isJson(request: Request): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** `scheme://host[:port]` as browsers send it in `Origin`; null for `null` and garbage. */
function originOf(value: string): string | null {
  try {
    const origin = new URL(value.trim()).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
