import { type BeforeApplicationShutdown, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppConfig } from '../../infra/config/app-config.js';
import { ApiError } from '../../infra/http/api-error.js';
import { createRedis } from '../../infra/redis/redis.module.js';
import { EVENTS_UNAVAILABLE, type LiveEventSink } from './live-event.types.js';
import { LiveEventsService } from './live-events.service.js';
import { type AccessRevocation, AccessRevocations } from './access-revocations.js';
import { revokedBy } from './stream-credential.js';

interface Subscription {
  workspaceId: string;
  sinks: Set<LiveEventSink>;
  /** Resolves once Redis confirmed SUBSCRIBE, i.e. from then on no event can slip past. */
  ready: Promise<void>;
}

/**
 * This process's side of the fan-out: ONE subscriber connection, subscribed to the channels of
 * the workspaces that have a client here, delivering each message to that workspace's local SSE
 * connections. Created on the first client, so worker-only processes never open it.
 */
@Injectable()
export class LiveEventFanout implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(LiveEventFanout.name);
  private subscriber: Redis | undefined;
  private readonly subscriptions = new Map<string, Subscription>();
  private closing = false;

  constructor(
    private readonly config: AppConfig,
    private readonly events: LiveEventsService,
    private readonly revocations: AccessRevocations,
  ) {}

  /**
   * Registers `sink` for the workspace's events and resolves once they are flowing (so the caller
   * can read the replay afterwards without a gap). Answers the function that unregisters it.
   */
  async attach(workspaceId: string, sink: LiveEventSink): Promise<() => void> {
    if (this.closing) throw new ApiError(503, EVENTS_UNAVAILABLE);
    const channel = this.events.channelOf(workspaceId);
    let subscription = this.subscriptions.get(channel);
    if (!subscription) {
      const subscriber = this.connection();
      // The mark first: from the moment the stream can see anything, the workspace's events are
      // built and kept (LiveEventsService.watched).
      const ready = this.events
        .markWatched([workspaceId])
        .then(() => subscriber.subscribe(channel))
        .then(() => undefined);
      subscription = { workspaceId, sinks: new Set(), ready };
      this.subscriptions.set(channel, subscription);
      const created = subscription;
      // A failed SUBSCRIBE must not stick: the next client tries again.
      ready.catch(() => {
        if (this.subscriptions.get(channel) === created) this.subscriptions.delete(channel);
      });
    }
    subscription.sinks.add(sink);
    const detach = (): void => this.detach(channel, sink);
    try {
      await subscription.ready;
    } catch (error) {
      detach();
      this.logger.warn(`subscribing to live events failed: ${String(error)}`);
      throw new ApiError(503, EVENTS_UNAVAILABLE);
    }
    return detach;
  }

  /** Every local connection, for the periodic credential recheck. */
  sinks(): LiveEventSink[] {
    return [...this.subscriptions.values()].flatMap(({ sinks }) => [...sinks]);
  }

  /** Ends the local streams opened with a credential that was just revoked (on any replica). */
  revoke(revocation: AccessRevocation): void {
    // A lapse ends nothing where this process lets unsubscribed workspaces stream.
    if (revocation.kind === 'subscription' && !this.config.subscriptionsEnforced) return;
    for (const sink of this.sinks()) if (revokedBy(sink.credential, revocation)) sink.close();
  }

  /** Local connections, for tests and metrics. */
  get connectionCount(): number {
    let count = 0;
    for (const { sinks } of this.subscriptions.values()) count += sinks.size;
    return count;
  }

  /**
   * End every SSE response before Nest closes the HTTP server: the server waits for open
   * connections, and an event stream never ends by itself. Clients reconnect to another replica.
   */
  beforeApplicationShutdown(): void {
    this.closing = true;
    this.closeAll();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    this.closeAll();
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private detach(channel: string, sink: LiveEventSink): void {
    const subscription = this.subscriptions.get(channel);
    if (!subscription?.sinks.delete(sink) || subscription.sinks.size > 0) return;
    this.subscriptions.delete(channel);
    // Commands on one connection run in order, so a later SUBSCRIBE to this channel still wins.
    this.subscriber?.unsubscribe(channel).catch(() => undefined);
    // The replay window counts from now: the client that just left can resume for that long.
    this.events.markWatched([subscription.workspaceId]).catch((error: unknown) => {
      this.logger.warn(`refreshing the watch mark failed: ${String(error)}`);
    });
  }

  private closeAll(): void {
    for (const sink of this.sinks()) sink.close();
  }

  private connection(): Redis {
    if (this.subscriber) return this.subscriber;
    // No ready check: ioredis writes a SUBSCRIBE issued between connecting and ready at once
    // (it may run while Redis loads), and its ready check's INFO after it is then refused in
    // subscriber mode, which drops the connection and every stream on it.
    const subscriber = createRedis(this.config, { connectionName: 'live-events-subscriber', enableReadyCheck: false });
    subscriber.on('message', (channel: string, message: string) => this.dispatch(channel, message));
    // Sent before any workspace's SUBSCRIBE on the same connection, so it is in place before the
    // first stream goes live. (A failure is covered by the periodic recheck.)
    subscriber.subscribe(this.revocations.channel).catch((error: unknown) => {
      this.logger.warn(`subscribing to access revocations failed: ${String(error)}`);
    });
    // Whatever was published while the connection was down is lost to pub/sub. Ending the
    // streams makes every client reconnect with its Last-Event-ID and replay exactly that gap.
    subscriber.on('close', () => {
      if (!this.closing) this.closeAll();
    });
    this.subscriber = subscriber;
    return subscriber;
  }

  private dispatch(channel: string, message: string): void {
    if (channel === this.revocations.channel) {
      const revocation = this.revocations.decode(message);
      if (revocation) this.revoke(revocation);
      return;
    }
    const subscription = this.subscriptions.get(channel);
    if (!subscription) return;
    const event = this.events.decode(message);
    if (!event) {
      this.logger.warn(`ignored a malformed live event on ${channel}`);
      return;
    }
    for (const sink of subscription.sinks) sink.deliver(event);
  }
}
