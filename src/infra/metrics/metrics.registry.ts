import { Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';

/**
 * The process's Prometheus registry (one per application, not prom-client's global one, so test
 * apps in one process never share counters). Features define their own metrics through it; every
 * name starts with `inbox_` (docs/operations.md lists them).
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  private processMetrics = false;

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return (this.registry.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter({ ...config, registers: [this.registry] });
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return (this.registry.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return (this.registry.getSingleMetric(config.name) as Histogram<L> | undefined) ?? new Histogram({ ...config, registers: [this.registry] });
  }

  /**
   * CPU, memory, event-loop lag, GC and handles of this process (prom-client's standard set).
   * Started by the real process only (bootstrap.ts): the event-loop and GC observers live as long
   * as the process, which suits one service per process but not a test run booting dozens of apps.
   */
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /** The Prometheus text exposition (runs every metric's collect step, some of which query Redis or Postgres). */
  exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
