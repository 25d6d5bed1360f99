import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { ACTIVE_SUBSCRIPTION_STATUSES } from '../../tenants/entities/workspace.entity.js';
import { accessRule, requestOf } from './access-rule.js';

/** Step 7: with SUBSCRIPTIONS_ENFORCED, a workspace without an active subscription gets 402. */
@Injectable()
export class SubscriptionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.config.subscriptionsEnforced) return true;
    const actor = requestOf(context).actor;
    if (!actor || accessRule(this.reflector, context).subscriptionExempt) return true;
    if (!ACTIVE_SUBSCRIPTION_STATUSES.includes(actor.subscriptionStatus)) {
      throw new ApiError(402, 'subscription required', { code: 'payment_required' });
    }
    return true;
  }
}
