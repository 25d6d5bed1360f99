import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../infra/config/app-config.js';
import { Clock } from '../auth/clock/clock.js';
import { ACTIVE_SUBSCRIPTION_STATUSES } from '../tenants/entities/workspace.entity.js';
import type { LiveEventSink } from './live-event.types.js';
import { LiveEventFanout } from './live-event-fanout.service.js';
import { LIVE_EVENTS_OPTIONS, type LiveEventsOptions } from './live-events.options.js';
import { StreamAccessRepository } from './stream-access.repository.js';

/**
 * The backstop behind the revocation signal: every `recheckMs` each open stream's credential is
 * validated again (key not revoked or expired, session alive, membership and role unchanged, and,
 * when subscriptions are enforced, the workspace's subscription still active: a lapse has no
 * signal of its own) and streams that fail end. Costs three indexed queries per workspace with
 * open streams per round.
 */
@Injectable()
export class StreamRecheckService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StreamRecheckService.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly fanout: LiveEventFanout,
    private readonly access: StreamAccessRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    @Inject(LIVE_EVENTS_OPTIONS) private readonly options: LiveEventsOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.recheck(), this.options.recheckMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One round; a round still running (slow database) makes the next one skip. */
  async recheck(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const byWorkspace = new Map<string, LiveEventSink[]>();
      for (const sink of this.fanout.sinks()) {
        const list = byWorkspace.get(sink.credential.workspaceId) ?? [];
        list.push(sink);
        byWorkspace.set(sink.credential.workspaceId, list);
      }
      for (const [workspaceId, sinks] of byWorkspace) await this.recheckWorkspace(workspaceId, sinks);
    } catch (error) {
      this.logger.warn(`rechecking live event streams failed: ${String(error)}`);
    } finally {
      this.running = false;
    }
  }

  private async recheckWorkspace(workspaceId: string, sinks: LiveEventSink[]): Promise<void> {
    const keyIds = sinks.flatMap(({ credential: c }) => (c.apiKeyId ? [c.apiKeyId] : []));
    const sessionIds = sinks.flatMap(({ credential: c }) => (c.sessionId ? [c.sessionId] : []));
    const valid = await this.access.stillValid(workspaceId, keyIds, sessionIds, this.clock.date());
    const lapsed =
      valid.subscriptionStatus === null || (this.config.subscriptionsEnforced && !ACTIVE_SUBSCRIPTION_STATUSES.includes(valid.subscriptionStatus));
    for (const sink of sinks) {
      const { apiKeyId, sessionId, role } = sink.credential;
      const ok = apiKeyId ? valid.keyIds.has(apiKeyId) : sessionId !== null && valid.sessionRoles.get(sessionId) === role;
      if (!ok || lapsed) sink.close();
    }
  }
}
