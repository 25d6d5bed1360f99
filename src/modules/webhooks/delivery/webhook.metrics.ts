import { Injectable } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from '../../../infra/metrics/metrics.registry.js';

export type AttemptKind = 'scheduled' | 'manual' | 'test';
export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

/**
 * `inbox_webhook_delivery_attempts_total{kind,outcome}` and
 * `inbox_webhook_delivery_attempt_duration_seconds{outcome}`: every attempt this process made
 * (scheduled by the worker, a manual replay, a test event) and how it ended. A failure is an
 * attempt that did not deliver: `retrying` (another attempt is scheduled) or `failed` (final).
 */
@Injectable()
export class WebhookMetrics {
  private readonly attempts: Counter<'kind' | 'outcome'>;
  private readonly duration: Histogram<'outcome'>;

  constructor(metrics: MetricsRegistry) {
    this.attempts = metrics.counter({
      name: 'inbox_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts made by this process, by kind (scheduled, manual, test) and outcome (delivered, retrying, failed)',
      labelNames: ['kind', 'outcome'],
    });
    this.duration = metrics.histogram({
      name: 'inbox_webhook_delivery_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts made by this process (connect, send, answer), by outcome',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    });
  }

  attempted(kind: AttemptKind, outcome: AttemptOutcome, durationMs: number): void {
    this.attemptsOf(kind, outcome).inc();
    this.durationOf(outcome).observe(Math.max(0, durationMs) / 1000);
  }

  // The labelled series, looked up once each: by labels on every call, prom-client builds and
  // hashes the label set each time (the worker counts every attempt).
  private readonly attemptSeries = new Map<string, { inc(): void }>();
  private readonly durationSeries = new Map<string, { observe(value: number): void }>();

  private attemptsOf(kind: AttemptKind, outcome: AttemptOutcome): { inc(): void } {
    const key = `${kind}:${outcome}`;
    let series = this.attemptSeries.get(key);
    if (!series) this.attemptSeries.set(key, (series = this.attempts.labels({ kind, outcome })));
    return series;
  }

  private durationOf(outcome: AttemptOutcome): { observe(value: number): void } {
    let series = this.durationSeries.get(outcome);
    if (!series) this.durationSeries.set(outcome, (series = this.duration.labels({ outcome })));
    return series;
  }
}
