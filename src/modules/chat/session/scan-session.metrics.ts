import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { withinScrapeTimeout } from '../../../infra/metrics/collect-timeout.js';
import { MetricsRegistry } from '../../../infra/metrics/metrics.registry.js';
import { throttledWarning } from '../../../infra/logging/throttled-warning.js';
import { ScanLiveStateStore } from './scan-live-state.store.js';
import { ScanSessionManager } from './scan-session.manager.js';
import { ScanSessionRepository } from './scan-session.repository.js';

/**
 * Scan-channel gauges:
 * - `inbox_scan_sessions{state}`: cluster-wide, read at scrape time from Postgres (wanted and
 *   linked numbers) and the holders' live state in Redis (connected, QR code showing);
 * - `inbox_scan_sockets_held`: sockets this process holds (0 on api processes).
 */
@Injectable()
export class ScanSessionMetrics implements OnModuleInit {
  private readonly warn = throttledWarning(new Logger('Metrics'));

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly rows: ScanSessionRepository,
    private readonly live: ScanLiveStateStore,
    private readonly manager: ScanSessionManager,
  ) {}

  onModuleInit(): void {
    const collectSessions = (): Promise<Record<'linked' | 'connected' | 'qr_pending', number>> => this.countSessions();
    const warn = this.warn;
    const manager = this.manager;
    this.metrics.gauge({
      name: 'inbox_scan_sessions',
      help: 'Scan-channel numbers cluster-wide: linked (wanted and linked), connected (socket open and logged in), qr_pending (a QR code waits)',
      labelNames: ['state'],
      async collect() {
        this.reset();
        try {
          const counts = await withinScrapeTimeout(collectSessions());
          for (const [state, value] of Object.entries(counts)) this.set({ state }, value);
        } catch (error) {
          warn('scan session counts', error as Error);
        }
      },
    });
    this.metrics.gauge({
      name: 'inbox_scan_sockets_held',
      help: 'Scan-channel sockets this process holds under a lease',
      collect() {
        this.set(manager.heldCount);
      },
    });
  }

  private async countSessions(): Promise<Record<'linked' | 'connected' | 'qr_pending', number>> {
    const wanted = await this.rows.wanted();
    const states = await Promise.all(wanted.map((row) => this.live.read(row.workspaceId)));
    return {
      linked: wanted.filter((row) => row.linked).length,
      connected: states.filter((state) => state.connected).length,
      qr_pending: states.filter((state) => !state.connected && state.qr !== null).length,
    };
  }
}
