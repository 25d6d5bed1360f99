import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { type Observable, throwError } from 'rxjs';
import { deferredInputRefusal } from './deferred-input.js';

/**
 * The input-validation step for what the body middleware refused (deferred-input.ts): Nest runs
 * interceptors after every guard (authentication, workspace, roles, subscription, rate limits)
 * and before any pipe, so a malformed or non-JSON body is a 400 exactly where docs/api.md's check
 * order puts input validation, on every route, with or without a `@Body`. Registered globally
 * (APP_INTERCEPTOR), first of all interceptors.
 */
@Injectable()
export class DeferredInputInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const refusal = deferredInputRefusal(context.switchToHttp().getRequest<IncomingMessage>());
      if (refusal !== undefined) return throwError(() => refusal);
    }
    return next.handle();
  }
}
