import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { parse } from 'cookie';
import { ApiError } from '../../../infra/http/api-error.js';
import { SESSION_COOKIE } from '../sessions/session-cookie.js';
import { SessionService } from '../sessions/session.service.js';
import { accessRule, requestOf } from './access-rule.js';

/** Step 2: without an API key, the `svc_session` cookie must name a live session, else 401. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {}

  // Not `async`: a request an API key already authenticated passes without a promise.
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (accessRule(this.reflector, context).kind === 'public') return true;
    const request = requestOf(context);
    if (request.principal) return true;
    const cookieHeader = request.headers.cookie;
    const token = cookieHeader ? parse(cookieHeader)[SESSION_COOKIE] : undefined;
    if (!token) throw ApiError.unauthorized();
    return this.sessions.authenticate(token).then((principal) => {
      if (!principal) throw ApiError.unauthorized();
      request.principal = principal;
      return true;
    });
  }
}
