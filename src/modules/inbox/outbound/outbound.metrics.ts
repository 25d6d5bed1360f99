import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Histogram } from 'prom-client';
import { withinScrapeTimeout } from '../../../infra/metrics/collect-timeout.js';
import { MetricsRegistry } from '../../../infra/metrics/metrics.registry.js';
import { throttledWarning } from '../../../infra/logging/throttled-warning.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { OutboundQueueRepository } from './outbound-queue.repository.js';
import { SendCapsRepository } from './send-caps.repository.js';
import { SendCapsService, type SendCap } from './send-caps.service.js';

/**
 * The outbound queue per number (label `workspace`: one series per number with sends waiting):
 * - `inbox_outbound_queue_depth`, `inbox_outbound_queue_oldest_seconds`: read at scrape time;
 * - `inbox_outbound_wait_seconds{channel}`: from queueing to sent, observed by the pump;
 * - `inbox_send_caps_used{workspace,cap}`: new chats started in the last 24 hours;
 * - `inbox_send_cap_refusals_total{cap}`: sends a cap refused (429).
 */
@Injectable()
export class OutboundMetrics implements OnModuleInit {
  private readonly warn = throttledWarning(new Logger('Metrics'));
  private wait!: Histogram<'channel'>;

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly rows: OutboundQueueRepository,
    private readonly caps: SendCapsService,
    private readonly capCounts: SendCapsRepository,
  ) {}

  onModuleInit(): void {
    const rows = this.rows;
    const warn = this.warn;
    let last: Promise<{ workspaceId: string; depth: number; oldestS: number }[]> | null = null;
    // One query serves both gauges of a scrape.
    const read = (): Promise<{ workspaceId: string; depth: number; oldestS: number }[]> => {
      last ??= withinScrapeTimeout(rows.depths()).finally(() => setTimeout(() => (last = null), 1000).unref());
      return last;
    };
    this.metrics.gauge({
      name: 'inbox_outbound_queue_depth',
      help: 'Sends waiting in the outbound queue, per number (workspace)',
      labelNames: ['workspace'],
      async collect() {
        this.reset();
        try {
          for (const lane of await read()) this.set({ workspace: lane.workspaceId }, lane.depth);
        } catch (error) {
          warn('outbound queue depth', error as Error);
        }
      },
    });
    this.metrics.gauge({
      name: 'inbox_outbound_queue_oldest_seconds',
      help: 'Age of the oldest waiting send, per number (workspace)',
      labelNames: ['workspace'],
      async collect() {
        this.reset();
        try {
          for (const lane of await read()) this.set({ workspace: lane.workspaceId }, lane.oldestS);
        } catch (error) {
          warn('outbound queue age', error as Error);
        }
      },
    });
    this.wait = this.metrics.histogram({
      name: 'inbox_outbound_wait_seconds',
      help: 'Time from queueing a send to its going out',
      labelNames: ['channel'],
      buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
    });
    const caps = this.capCounts;
    this.metrics.gauge({
      name: 'inbox_send_caps_used',
      help: 'What each number used of its caps in the last 24 hours (cap first_contacts: new chats started)',
      labelNames: ['workspace', 'cap'],
      async collect() {
        this.reset();
        try {
          for (const row of await withinScrapeTimeout(caps.firstContactsPerWorkspace()))
            this.set({ workspace: row.workspaceId, cap: 'first_contacts' }, row.used);
        } catch (error) {
          warn('send caps used', error as Error);
        }
      },
    });
    const refusals = this.metrics.counter({ name: 'inbox_send_cap_refusals_total', help: 'Sends refused by a cap (429)', labelNames: ['cap'] });
    this.caps.onRefusal((cap: SendCap) => refusals.inc({ cap }));
  }

  sent(_workspaceId: string, channel: ChannelName, waitedMs: number): void {
    this.wait.observe({ channel }, waitedMs / 1000);
  }
}
