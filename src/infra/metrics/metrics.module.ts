import { Global, Module } from '@nestjs/common';
import { MetricsServer } from './metrics-server.js';
import { MetricsRegistry } from './metrics.registry.js';

/** The process's metrics registry, for every module to add its metrics to, and METRICS_PORT. */
@Global()
@Module({
  providers: [MetricsRegistry, MetricsServer],
  exports: [MetricsRegistry],
})
export class MetricsModule {}
