import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../infra/config/app-config.js';
import { ApiError } from '../../infra/http/api-error.js';
import { metricsAuthorized } from '../../infra/metrics/metrics-token.js';

/**
 * `Authorization: Bearer <METRICS_TOKEN>` when a token is configured; 401 `unauthorized` otherwise.
 * With METRICS_PORT set, metrics are served there only: on the API port (the one a load balancer
 * exposes) `/metrics` is then an unknown path, 404, before any token is asked for.
 */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.config.metricsPort !== undefined) throw ApiError.notFound('not found', { code: 'not_found' });
    const request = context.switchToHttp().getRequest<Request>();
    if (!metricsAuthorized(request.headers.authorization, this.config.metricsToken)) throw ApiError.unauthorized();
    return true;
  }
}
