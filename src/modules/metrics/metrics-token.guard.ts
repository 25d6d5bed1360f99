import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../infra/config/app-config.js';
import { ApiError } from '../../infra/http/api-error.js';
import { metricsAuthorized } from '../../infra/metrics/metrics-token.js';

/** `Authorization: Bearer <METRICS_TOKEN>` when a token is configured; 401 `unauthorized` otherwise. */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!metricsAuthorized(request.headers.authorization, this.config.metricsToken)) throw ApiError.unauthorized();
    return true;
  }
}
