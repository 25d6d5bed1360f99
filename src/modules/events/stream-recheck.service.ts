import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppConfig } from '../../infra/config/app-config.js';
import { ApiKeyCache } from '../auth/api-keys/api-key-cache.js';
import { Clock } from '../auth/clock/clock.js';
import { ACTIVE_SUBSCRIPTION_STATUSES } from '../tenants/entities/workspace.entity.js';
import type { LiveEventSink } from './live-event.types.js';
import { LiveEventFanout } from './live-event-fanout.service.js';
import { LIVE_EVENTS_OPTIONS, type LiveEventsOptions } from './live-events.options.js';
import { StreamAccessRepository } from './stream-access.repository.js';

/**
 * The backstop behind the revocation signal: every `recheckMs` each open stream's credential is
 * validated again (key not revoked or expired, session alive, membership and role unchanged, and,
 * when subscriptions are enforced, the workspace's subscription still active: a lapse the
 * operator CLI makes is signalled, one made behind the service is not) and streams that fail end. Costs three indexed queries per workspace with
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
    private readonly moduleRef: ModuleRef,
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
      const failing: LiveEventSink[] = [];
      for (const [workspaceId, sinks] of byWorkspace) failing.push(...(await this.failingIn(workspaceId, sinks)));
      // A key's stream failing means its key (or its workspace's subscription) changed without the
      // revocation path: the caches go first, so a client reconnecting at its stream's end is refused.
      if (failing.some((sink) => sink.credential.apiKeyId !== null)) await this.forgetCachedKeys();
      for (const sink of failing) sink.close();
    } catch (error) {
      this.logger.warn(`rechecking live event streams failed: ${String(error)}`);
    } finally {
      this.running = false;
    }
  }

  /** The streams of a workspace whose credential no longer holds. */
  private async failingIn(workspaceId: string, sinks: LiveEventSink[]): Promise<LiveEventSink[]> {
    const keyIds = sinks.flatMap(({ credential: c }) => (c.apiKeyId ? [c.apiKeyId] : []));
    const sessionIds = sinks.flatMap(({ credential: c }) => (c.sessionId ? [c.sessionId] : []));
    const valid = await this.access.stillValid(workspaceId, keyIds, sessionIds, this.clock.date());
    const lapsed = valid.subscriptionStatus === null || (this.config.subscriptionsEnforced && !ACTIVE_SUBSCRIPTION_STATUSES.includes(valid.subscriptionStatus));
    return sinks.filter(({ credential: { apiKeyId, sessionId, role } }) => {
      const ok = apiKeyId ? valid.keyIds.has(apiKeyId) : sessionId !== null && valid.sessionRoles.get(sessionId) === role;
      return !ok || lapsed;
    });
  }

  /**
   * A change made behind the service (SQL: a key revoked or expired by hand, a subscription ended)
   * is not in the processes' key caches, which would let the client that just lost its stream
   * reconnect, and call the API, for up to their 5 minutes. Replacing the cache generation
   * (docs/api-keys.md; it answers once every process will see it) makes them ask Postgres again.
   * Looked up lazily: the auth module that owns the cache depends on this global module.
   */
  private async forgetCachedKeys(): Promise<void> {
    const cache = this.moduleRef.get(ApiKeyCache, { strict: false });
    await cache.invalidate().catch((error: unknown) => this.logger.warn(`could not invalidate the API key cache: ${String(error)}`));
  }
}
