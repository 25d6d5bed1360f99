import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';

interface Endpoint {
  inFlight: number;
  /** Moving average of how long one of its jobs holds a slot, in ms. */
  averageMs: number;
  /** A slot of it was released since it got busy: `averageMs` is measured, not assumed. */
  measured: boolean;
  /** Jobs waiting in this process for one of its slots, first come first served. */
  waiters: (() => void)[];
}

// Bounds of the wait of a job that found its endpoint's slots taken.
const MIN_WAIT_MS = 20;
const MAX_WAIT_MS = 5000;
// A job whose endpoint's slots are taken waits for one in the process (not parked in Redis) when
// the endpoint holds its slots this briefly on average, and at most this long.
const QUICK_ENDPOINT_MS = 250;

/**
 * In-flight attempts per endpoint in this process, at most WEBHOOK_ENDPOINT_CONCURRENCY: a slow
 * or dead endpoint holds a few of the worker's WEBHOOK_CONCURRENCY slots, never all of them, so
 * every other endpoint's deliveries keep flowing. A job that finds its endpoint's slots taken
 * waits for one in the process when the endpoint is known to be quick (slots held briefly; at
 * most as many waiters as slots, and a quarter of the worker's slots in all), and otherwise steps aside (back to the delayed set, not an attempt) for
 * about as long as a slot of that endpoint is usually held: seconds for a dead one.
 */
@Injectable()
export class EndpointSlots {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly limit: number;
  /** Jobs waiting for a slot, all endpoints together, at most a quarter of the worker's concurrency. */
  private waiting = 0;
  private readonly maxWaiting: number;

  constructor(config: AppConfig) {
    this.limit = config.webhooks.endpointConcurrency;
    this.maxWaiting = Math.floor(config.webhooks.concurrency / 4);
  }

  tryAcquire(webhookId: string): boolean {
    const endpoint = this.endpoints.get(webhookId) ?? { inFlight: 0, averageMs: MIN_WAIT_MS, measured: false, waiters: [] };
    if (endpoint.inFlight >= this.limit) return false;
    endpoint.inFlight++;
    this.endpoints.set(webhookId, endpoint);
    return true;
  }

  /** A slot now, or after a short wait in the process for a quick endpoint; false: step aside. */
  async acquire(webhookId: string): Promise<boolean> {
    if (this.tryAcquire(webhookId)) return true;
    const endpoint = this.endpoints.get(webhookId)!;
    // Only an endpoint known to be quick (a new one may be dead: its first attempts still running).
    if (!endpoint.measured || endpoint.averageMs > QUICK_ENDPOINT_MS || endpoint.waiters.length >= this.limit || this.waiting >= this.maxWaiting) return false;
    this.waiting++;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting--;
        endpoint.waiters.splice(endpoint.waiters.indexOf(handOver), 1);
        resolve(false);
      }, QUICK_ENDPOINT_MS);
      // Called by release with the slot handed over (inFlight unchanged).
      const handOver = (): void => {
        this.waiting--;
        clearTimeout(timer);
        resolve(true);
      };
      endpoint.waiters.push(handOver);
    });
  }

  release(webhookId: string, heldMs: number): void {
    const endpoint = this.endpoints.get(webhookId);
    if (!endpoint) return;
    endpoint.averageMs = endpoint.measured ? 0.8 * endpoint.averageMs + 0.2 * heldMs : heldMs;
    endpoint.measured = true;
    const next = endpoint.waiters.shift();
    if (next) return next();
    endpoint.inFlight--;
    // An idle endpoint forgets: the map holds only endpoints in use.
    if (endpoint.inFlight <= 0) this.endpoints.delete(webhookId);
  }

  /** How long a job of a saturated endpoint should step aside, with jitter. */
  waitMs(webhookId: string): number {
    const average = this.endpoints.get(webhookId)?.averageMs ?? MIN_WAIT_MS;
    return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, average)) * (1 + Math.random());
  }
}
