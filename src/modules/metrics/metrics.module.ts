import { Module } from '@nestjs/common';
import { MetricsTokenGuard } from './metrics-token.guard.js';
import { MetricsController } from './metrics.controller.js';

/** `GET /metrics`; the registry itself is plumbing (src/infra/metrics), filled by every feature. */
@Module({ controllers: [MetricsController], providers: [MetricsTokenGuard] })
export class MetricsHttpModule {}
