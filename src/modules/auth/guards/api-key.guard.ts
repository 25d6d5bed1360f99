import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import passport from 'passport';
import { ApiError } from '../../../infra/http/api-error.js';
import { ApiKeyStrategy } from '../api-keys/api-key.strategy.js';
import type { ApiKeyPrincipal } from '../auth.types.js';
import type { AccessRule } from '../decorators/access.decorators.js';
import { accessRule, isWorkspaceRoute, requestOf, selectedWorkspaces } from './access-rule.js';

// Exactly `Bearer <key>`: capital B, one space (docs/contract.md#authentication). `bearer x`, `X-API-Key`
// and keys in query strings are not API keys.
const BEARER = /^Bearer (\S+)$/;

interface Outcome {
  error: unknown;
  principal: ApiKeyPrincipal | null;
}

/**
 * Step 1 of the chain: authenticates an API key, then checks it against the selected workspace.
 * A key the process has cached is decided synchronously (no promise on the hot path); any other
 * after its lookup.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: ApiKeyStrategy,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const rule = accessRule(this.reflector, context);
    if (rule.kind === 'public') return true;
    const request = requestOf(context);
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !BEARER.test(header)) return true;

    const outcome = this.authenticate(header);
    return outcome instanceof Promise ? outcome.then((o) => this.admit(request, rule, o)) : this.admit(request, rule, outcome);
  }

  private admit(request: Request, rule: AccessRule, { error, principal }: Outcome): boolean {
    if (error) throw error;
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
   * Answers directly when passport called back before returning, else a promise of the outcome.
   */
  private authenticate(authorization: string): Outcome | Promise<Outcome> {
    let outcome: Outcome | undefined;
    let deliver: ((result: Outcome) => void) | undefined;
    const done = (error: unknown, principal?: ApiKeyPrincipal | false): void => {
      const result = { error, principal: principal || null };
      if (deliver) deliver(result);
      else outcome = result;
    };
    const onlyHeader = { headers: { authorization }, query: {}, body: {} };
    passport.authenticate(Object.create(this.strategy) as ApiKeyStrategy, { session: false }, done)(onlyHeader, {}, done);
    return outcome ?? new Promise<Outcome>((resolve) => (deliver = resolve));
  }
}
