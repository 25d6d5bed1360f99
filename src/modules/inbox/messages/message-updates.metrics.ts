import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../infra/metrics/metrics.registry.js';
import { PENDING_UPDATE_KINDS, type PendingUpdateKind } from '../entities/pending-message-update.entity.js';

/**
 * `inbox_message_updates_dropped_total{kind}`: reactions, edits and revokes (`kind` `reaction`,
 * `edit`, `revoke`) dropped by this process because the message they act on never arrived within
 * the wait (PendingUpdatesOptions.ttlMs). A steady rise means a channel delivers updates of
 * messages the inbox never stores.
 */
@Injectable()
export class MessageUpdatesMetrics {
  private readonly dropped: Counter<'kind'>;

  constructor(metrics: MetricsRegistry) {
    this.dropped = metrics.counter({
      name: 'inbox_message_updates_dropped_total',
      help: 'Reactions, edits and revokes dropped because their message never arrived, by kind (reaction, edit, revoke)',
      labelNames: ['kind'],
    });
    // Every kind from the start at 0, so a rate over it is defined before the first drop.
    for (const kind of PENDING_UPDATE_KINDS) this.dropped.inc({ kind }, 0);
  }

  droppedUpdates(kinds: readonly PendingUpdateKind[]): void {
    for (const kind of kinds) this.dropped.inc({ kind });
  }
}
