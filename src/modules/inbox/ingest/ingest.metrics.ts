import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../infra/metrics/metrics.registry.js';

/**
 * `inbox_messages_ingested_total{channel,path,result}`: messages this process handed to ingest,
 * by channel, path (`live`: one at a time with hooks; `batch`: history) and result (`created`, or
 * `duplicate`: a redelivery that changed nothing). A rising duplicate rate means a channel is
 * redelivering, e.g. after reconnects.
 */
@Injectable()
export class IngestMetrics {
  private readonly ingested: Counter<'channel' | 'path' | 'result'>;

  constructor(metrics: MetricsRegistry) {
    this.ingested = metrics.counter({
      name: 'inbox_messages_ingested_total',
      help: 'Messages ingested by this process, by channel, path (live, batch) and result (created, duplicate)',
      labelNames: ['channel', 'path', 'result'],
    });
  }

  live(channel: string, created: boolean): void {
    this.ingested.inc({ channel, path: 'live', result: created ? 'created' : 'duplicate' });
  }

  batch(channel: string, inserted: number, received: number): void {
    if (inserted > 0) this.ingested.inc({ channel, path: 'batch', result: 'created' }, inserted);
    if (received > inserted) this.ingested.inc({ channel, path: 'batch', result: 'duplicate' }, received - inserted);
  }
}
