import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { withinScrapeTimeout } from '../../../infra/metrics/collect-timeout.js';
import { MetricsRegistry } from '../../../infra/metrics/metrics.registry.js';
import { throttledWarning } from '../../../infra/logging/throttled-warning.js';
import { PlacementService } from '../placement/placement.service.js';
import { ScanLiveStateStore } from './scan-live-state.store.js';
import { ScanSessionManager } from './scan-session.manager.js';
import { ScanSessionRepository } from './scan-session.repository.js';

/**
 * Scan-channel gauges:
 * - `inbox_scan_sessions{state}`: cluster-wide, read at scrape time from Postgres (wanted and
 *   linked numbers) and the holders' live state in Redis (connected, QR code showing);
 * - `inbox_scan_sockets_held`: sockets this process holds (0 on api processes);
 * - `inbox_scan_numbers_unplaced`: cluster-wide, linked numbers no worker has room for (every
 *   process reports the same count: placement is computed alike everywhere).
 */
@Injectable()
export class ScanSessionMetrics implements OnModuleInit {
  private readonly warn = throttledWarning(new Logger('Metrics'));

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly rows: ScanSessionRepository,
    private readonly live: ScanLiveStateStore,
    private readonly manager: ScanSessionManager,
    private readonly placement: PlacementService,
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
    const placement = this.placement;
    this.metrics.gauge({
      name: 'inbox_scan_numbers_unplaced',
      help: 'Linked scan-channel numbers no worker has room for (CHAT_MAX_SESSIONS_PER_WORKER), cluster-wide',
      async collect() {
        try {
          this.set(await withinScrapeTimeout(placement.unplaced()));
        } catch (error) {
          warn('unplaced numbers', error as Error);
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
