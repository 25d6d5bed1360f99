import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricsRegistry } from './metrics.registry.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

// Seconds. Most routes answer in milliseconds; connect waits up to CHAT_CONNECT_WAIT_MS (5 s).
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Requests no route answered (404s, the body parser's 400/413, CORS preflights) share one label. */
export const UNMATCHED_ROUTE = 'unmatched';

interface RoutedRequest extends IncomingMessage {
  route?: { path?: unknown };
  baseUrl?: string;
}

/**
 * Express middleware timing every request by method, route template and status. The label is
 * the route as declared (`/api/conversations/:id`), never the raw path, so ids in URLs cannot
 * multiply the series. Server-Sent Event streams are left out: their "duration" is the life of a
 * connection, not a latency.
 */
export function httpMetricsMiddleware(metrics: MetricsRegistry): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const histogram = metrics.histogram({
    name: 'inbox_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: BUCKETS,
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      histogram.observe(
        { method: METHODS.has(req.method ?? '') ? req.method! : 'OTHER', route: routeOf(req as RoutedRequest), status: String(res.statusCode) },
        seconds,
      );
    });
    next();
  };
}

function routeOf(req: RoutedRequest): string {
  const path = req.route?.path;
  // A wildcard route (the catch-all that answers unknown paths with 404) names no operation.
  if (typeof path !== 'string' || path.includes('*')) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${path}`;
}
