import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';

/**
 * In-flight attempts per endpoint in this process, at most WEBHOOK_ENDPOINT_CONCURRENCY: a slow
 * or dead endpoint holds a few of the worker's WEBHOOK_CONCURRENCY slots, never all of them, so
 * every other endpoint's deliveries keep flowing. A job that finds its endpoint's slots taken
 * steps aside (delayed a moment) without counting as an attempt.
 */
@Injectable()
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly limit: number;

  constructor(config: AppConfig) {
    this.limit = config.webhooks.endpointConcurrency;
  }

  tryAcquire(webhookId: string): boolean {
    const count = this.inFlight.get(webhookId) ?? 0;
    if (count >= this.limit) return false;
    this.inFlight.set(webhookId, count + 1);
    return true;
  }

  release(webhookId: string): void {
    const count = (this.inFlight.get(webhookId) ?? 1) - 1;
    if (count <= 0) this.inFlight.delete(webhookId);
    else this.inFlight.set(webhookId, count);
  }
}
