import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../infra/metrics/metrics.registry.js';
import type { Unrouted } from './callback-router.js';

/**
 * `inbox_meta_callback_entries_unrouted_total{reason}`: entries of provider callbacks processed
 * by this process that held a forwarded change no workspace owns, so that part reached nobody:
 * `unknown_number` (a `messages` change for a `phone_number_id` no workspace has, e.g. a number
 * disconnected while Meta still sends for it) and `unknown_waba` (a template update for a WABA no
 * workspace has a number of). An entry counts once per reason, however many such changes it holds.
 */
@Injectable()
export class MetaCallbackMetrics {
  private readonly unrouted: Counter<'reason'>;

  constructor(metrics: MetricsRegistry) {
    this.unrouted = metrics.counter({
      name: 'inbox_meta_callback_entries_unrouted_total',
      help: 'Provider callback entries with a forwarded change for a number (unknown_number) or WABA (unknown_waba) no workspace has',
      labelNames: ['reason'],
    });
    // Present from the start, so a rate() has a zero to begin from.
    this.unrouted.inc({ reason: 'unknown_number' }, 0);
    this.unrouted.inc({ reason: 'unknown_waba' }, 0);
  }

  counted(unrouted: Unrouted): void {
    if (unrouted.unknownNumber > 0) this.unrouted.inc({ reason: 'unknown_number' }, unrouted.unknownNumber);
    if (unrouted.unknownWaba > 0) this.unrouted.inc({ reason: 'unknown_waba' }, unrouted.unknownWaba);
  }
}
