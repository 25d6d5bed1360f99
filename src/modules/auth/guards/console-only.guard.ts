import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../../../infra/http/api-error.js';
import { accessRule, requestOf } from './access-rule.js';

export const KEYS_CANNOT_ADMINISTER = 'API keys cannot administer workspaces';

/** Step 3: session-only routes refuse API keys, whatever their scope (checked before read-only). */
@Injectable()
export class ConsoleOnlyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const { kind } = accessRule(this.reflector, context);
    if (kind !== 'user' && kind !== 'session' && kind !== 'console') return true;
    if (requestOf(context).principal?.type === 'api_key') throw ApiError.forbidden(KEYS_CANNOT_ADMINISTER);
    return true;
  }
}
