import type { Server, ServerResponse } from 'node:http';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * The first step of a graceful shutdown: stop taking requests. Nest closes the HTTP server only
 * after every `beforeApplicationShutdown` hook, and the queue workers wait there for their running
 * jobs; until then a load balancer would still be sending new requests here. So, as the shutdown
 * begins (`onModuleDestroy`), the listener closes at once (new connections are refused) and every
 * response from then on carries `Connection: close`, so clients on kept-alive connections move to
 * another replica. Requests already in flight finish normally.
 */
@Injectable()
export class HttpDrain implements OnModuleDestroy {
  private draining = false;
  private readonly inFlight = new Set<ServerResponse>();

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** Express middleware, mounted first by configureApp. */
  readonly middleware = (_req: unknown, res: ServerResponse, next: () => void): void => {
    if (this.draining) {
      res.shouldKeepAlive = false;
    } else {
      this.inFlight.add(res);
      res.once('close', () => this.inFlight.delete(res));
    }
    next();
  };

  onModuleDestroy(): void {
    this.draining = true;
    for (const res of this.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    // A worker process has no HTTP server; the test harness may never have listened.
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server?.listening) server.close();
  }
}
