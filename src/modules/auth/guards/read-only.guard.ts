import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { requestOf } from './access-rule.js';

const READ_METHODS = new Set(['GET', 'HEAD']);

/** Step 4: a `read` key may only GET or HEAD. */
@Injectable()
export class ReadOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = requestOf(context);
    const principal = request.principal;
    if (principal?.type === 'api_key' && principal.scope === 'read' && !READ_METHODS.has(request.method)) {
      throw ApiError.forbidden('API key is read-only');
    }
    return true;
  }
}
