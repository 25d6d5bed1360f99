import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';

interface Endpoint {
  inFlight: number;
  /** Moving average of how long one of its jobs holds a slot, in ms. */
  averageMs: number;
}

// Bounds of the wait of a job that found its endpoint's slots taken.
const MIN_WAIT_MS = 20;
const MAX_WAIT_MS = 5000;

/**
 * In-flight attempts per endpoint in this process, at most WEBHOOK_ENDPOINT_CONCURRENCY: a slow
 * or dead endpoint holds a few of the worker's WEBHOOK_CONCURRENCY slots, never all of them, so
 * every other endpoint's deliveries keep flowing. A job that finds its endpoint's slots taken
 * steps aside (back to the delayed set, not an attempt) for about as long as a slot of that
 * endpoint is usually held: moments for a fast endpoint with a backlog, seconds for a dead one.
 */
@Injectable()
export class EndpointSlots {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly limit: number;

  constructor(config: AppConfig) {
    this.limit = config.webhooks.endpointConcurrency;
  }

  tryAcquire(webhookId: string): boolean {
    const endpoint = this.endpoints.get(webhookId) ?? { inFlight: 0, averageMs: MIN_WAIT_MS };
    if (endpoint.inFlight >= this.limit) return false;
    endpoint.inFlight++;
    this.endpoints.set(webhookId, endpoint);
    return true;
  }

  release(webhookId: string, heldMs: number): void {
    const endpoint = this.endpoints.get(webhookId);
    if (!endpoint) return;
    endpoint.inFlight--;
    endpoint.averageMs = 0.8 * endpoint.averageMs + 0.2 * heldMs;
    // An idle endpoint forgets: the map holds only endpoints in use.
    if (endpoint.inFlight <= 0) this.endpoints.delete(webhookId);
  }

  /** How long a job of a saturated endpoint should step aside, with jitter. */
  waitMs(webhookId: string): number {
    const average = this.endpoints.get(webhookId)?.averageMs ?? MIN_WAIT_MS;
    return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, average)) * (1 + Math.random());
  }
}
