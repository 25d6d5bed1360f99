import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { ApiError } from '../../../infra/http/api-error.js';
import { requestOf } from '../guards/access-rule.js';
import { rateLimitClientKey } from './client-key.js';
import { RATE_LIMIT_KEY, type RateLimitGroup, TOO_MANY_ATTEMPTS } from './rate-limit.decorator.js';
import { RateLimiter } from './rate-limiter.service.js';

/**
 * Step 0 of the chain: rate-limited routes are public, so the limit is checked before any
 * authentication or database work. The client IP is Express's `req.ip`, which honours
 * `X-Forwarded-For` only when `TRUST_PROXY` is set (configure-app.ts sets `trust proxy`); IPv6
 * clients are counted per /64 (see client-key.ts).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const group = this.reflector.get<RateLimitGroup | undefined>(RATE_LIMIT_KEY, context.getHandler());
    if (!group) return true;
    const request = requestOf(context);
    const decision = this.limiter.hit(group, rateLimitClientKey(request.ip ?? request.socket.remoteAddress ?? 'unknown'));
    if (decision.allowed) return true;
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(decision.retryAfterSeconds));
    throw new ApiError(429, TOO_MANY_ATTEMPTS);
  }
}
