import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { CROSS_SITE_CHECKED_KEY } from '../decorators/cross-site-checked.decorator.js';
import { requestOf } from './access-rule.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// `none`: the user typed the address or used a bookmark; no other site was involved.
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

export const CSRF_REFUSED = 'cross-site request refused: origin not allowed';

/**
 * Step 2b (after SessionGuard): the browser attaches our cookie whoever wrote the page, so a
 * state-changing request authenticated by it (and a sign-in, against login CSRF) must come from
 * our own pages or a trusted Console origin. Fetch Metadata decides, as Go's
 * `net/http.CrossOriginProtection` and OWASP's CSRF cheat sheet do:
 * - `Sec-Fetch-Site: same-origin` or `none` passes; any other value needs a trusted `Origin`
 *   (PUBLIC_URL's, or one listed in CORS_ORIGINS; `*` trusts no one with a cookie);
 * - older browsers send no `Sec-Fetch-Site`: then an `Origin`, when present, must be trusted or
 *   the request's own origin;
 * - neither header: not a browser (curl, a server), which cannot be tricked into sending someone
 *   else's cookie; old browsers that send neither are covered by the `SameSite=Lax` cookie.
 * The body and its Content-Type play no part, so body-less DELETEs and POSTs work as the contract
 * lists them. API-key requests carry no ambient credential and are never checked. The answer of a
 * GET or HEAD never depends on these headers, so caches need no `Vary` for them.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly trustedOrigins: ReadonlySet<string>;

  constructor(
    private readonly reflector: Reflector,
    config: AppConfig,
  ) {
    const explicit = config.corsOrigins === '*' ? [] : config.corsOrigins;
    this.trustedOrigins = new Set([config.publicUrl, ...explicit].map(originOf).filter((o): o is string => o !== null));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = requestOf(context);
    if (SAFE_METHODS.has(request.method)) return true;
    const viaCookie = request.principal?.type === 'session';
    if (!viaCookie && this.reflector.get<boolean | undefined>(CROSS_SITE_CHECKED_KEY, context.getHandler()) !== true) return true;
    if (!this.fromTrustedSite(request)) throw ApiError.forbidden(CSRF_REFUSED);
    return true;
  }

  private fromTrustedSite(request: Request): boolean {
    // An empty value says nothing (no browser sends one): the same as a missing header.
    const site = request.headers['sec-fetch-site']?.trim().toLowerCase() || undefined;
    const originHeader = request.headers.origin;
    const origin = originHeader === undefined ? undefined : originOf(originHeader);
    const trusted = origin !== undefined && origin !== null && this.trustedOrigins.has(origin);
    if (site !== undefined) return OWN_FETCH_SITES.has(site) || trusted;
    if (origin === undefined) return true;
    return trusted || (origin !== null && origin === ownOrigin(request));
  }
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

/** The origin the client addressed: scheme and Host (X-Forwarded-Proto/-Host when TRUST_PROXY says so). */
function ownOrigin(request: Request): string | null {
  const host = request.host;
  return host ? originOf(`${request.protocol}://${host}`) : null;
}
