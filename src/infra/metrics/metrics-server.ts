import { createServer, type Server } from 'node:http';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { metricsAuthorized } from './metrics-token.js';
import { MetricsRegistry } from './metrics.registry.js';

/**
 * METRICS_PORT: a plain HTTP listener that answers only `GET /metrics` (same text, same
 * METRICS_TOKEN as the API's route). It is how a `worker` process, which opens no API port, is
 * scraped; on an `api` process it keeps the metrics off the port the load balancer exposes.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === undefined) return;
    const server = createServer((req, res) => {
      // The API port's shapes: an unknown path is {error, code: not_found}; nothing is cached.
      const json = (status: number, error: string): void => {
        const body = status === 404 ? { error, code: 'not_found' } : { error };
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
      };
      if ((req.method !== 'GET' && req.method !== 'HEAD') || req.url?.split('?')[0] !== '/metrics') return json(404, 'not found');
      if (!metricsAuthorized(req.headers.authorization, this.config.metricsToken)) return json(401, 'unauthorized');
      this.metrics.exposition().then(
        (text) => res.writeHead(200, { 'Content-Type': this.metrics.contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
        (error: unknown) => {
          this.logger.error({ err: error }, 'metrics collection failed');
          json(500, 'internal server error');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // HOST binds this port too; unset: every interface.
      server.listen({ port: this.config.metricsPort, host: this.config.host }, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics on port ${this.config.metricsPort} (GET /metrics)`);
  }

  onApplicationShutdown(): void {
    this.server?.close();
    this.server?.closeAllConnections();
  }
}
