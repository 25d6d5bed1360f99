import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import passport from 'passport';
import { ApiError } from '../../../infra/http/api-error.js';
import { ApiKeyStrategy } from '../api-keys/api-key.strategy.js';
import type { ApiKeyPrincipal } from '../auth.types.js';
import { accessRule, isWorkspaceRoute, requestOf, selectedWorkspaces } from './access-rule.js';

// Exactly `Bearer <key>`: capital B, one space (interface.md section 5). `bearer x`, `X-API-Key`
// and keys in query strings are not API keys.
const BEARER = /^Bearer (\S+)$/;

/** Step 1 of the chain: authenticates an API key, then checks it against the selected workspace. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: ApiKeyStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = accessRule(this.reflector, context);
    if (rule.kind === 'public') return true;
    const request = requestOf(context);
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !BEARER.test(header)) return true;

    const principal = await this.authenticate(header);
    if (!principal) throw ApiError.unauthorized('invalid or expired API key');
    request.principal = principal;

    // Every workspace the request names must be the key's own (header and `?tenant=` alike).
    if (isWorkspaceRoute(rule.kind) && selectedWorkspaces(request).some((id) => id !== principal.workspaceId)) {
      throw ApiError.forbidden('API key belongs to a different workspace');
    }
    return true;
  }

  /**
   * Runs the passport-http-bearer strategy on a request that holds only the header: the strategy
   * would otherwise also accept `access_token` from the query string or body. The strategy is
   * passed as this app's instance, not by name: passport's name registry is process-wide, so two
   * apps in one process (tests, the CLI) would otherwise check keys against the wrong database.
   * Passport binds its per-request callbacks onto the object it is given, so each request gets
   * its own object with the strategy as prototype (sharing one would cross concurrent requests).
   */
  private authenticate(authorization: string): Promise<ApiKeyPrincipal | null> {
    return new Promise((resolve, reject) => {
      const onlyHeader = { headers: { authorization }, query: {}, body: {} };
      const authenticate = passport.authenticate(Object.create(this.strategy) as ApiKeyStrategy, { session: false }, (error: unknown, principal: ApiKeyPrincipal | false) =>
        error ? reject(error) : resolve(principal || null),
      );
      authenticate(onlyHeader, {}, reject);
    });
  }
}
