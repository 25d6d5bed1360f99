import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import type { AppConfig } from './infra/config/app-config.js';
import { DatabaseStartup } from './infra/database/database-startup.js';
import { configureApp } from './infra/http/configure-app.js';
import { MetricsRegistry } from './infra/metrics/metrics.registry.js';
import { FrameworkQuietLogger } from './infra/logging/framework-logger.js';
import { bootLogger, createRootLogger } from './infra/logging/logging.module.js';
import { startupSummary } from './infra/logging/startup-summary.js';

/** Options every HTTP app is created with (main.ts and the test harness). */
// The JSON body parser is configured in configureApp (its `verify` step keeps `req.rawBody`).
export const HTTP_APP_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

/** Signals that stop the service: SIGTERM from Docker/Kubernetes/`node --watch`, SIGINT from Ctrl-C. */
const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'];

// A shutdown waits for in-flight requests and jobs. Should one of them hang (a stuck upstream call,
// a client that never reads), exit anyway before an orchestrator's SIGKILL (Compose waits 30 s).
const SHUTDOWN_DEADLINE_MS = 25_000;

/**
 * Starts what `ROLE` asks for: `api` and `all` serve HTTP; `worker` runs only the queue
 * processors and channel sessions (no port is opened). A start-up failure (Postgres unreachable,
 * a port in use) is logged as one JSON line and ends the process with code 1, for the
 * orchestrator to restart it.
 */
export async function bootstrap(config: AppConfig): Promise<INestApplicationContext> {
  const root = createRootLogger(config);
  const module = AppModule.forRoot(config, root);
  // Logs go to pino from the first line; `abortOnError: false` lets a failure reach the catch below.
  const options = { bufferLogs: false, logger: bootLogger(root), abortOnError: false } as const;
  try {
    if (!config.runsHttp) {
      const context = await NestFactory.createApplicationContext(module, options);
      context.useLogger(new FrameworkQuietLogger(context.get(Logger)));
      context.get(MetricsRegistry).collectProcessMetrics();
      stopOnSignals(context);
      warnAboutDevelopmentKey(context, config);
      logSummary(context, config, null);
      return context;
    }
    const app = await NestFactory.create<NestExpressApplication>(module, { ...HTTP_APP_OPTIONS, ...options });
    app.useLogger(new FrameworkQuietLogger(app.get(Logger)));
    app.get(MetricsRegistry).collectProcessMetrics();
    configureApp(app, config);
    stopOnSignals(app);
    // Without HOST, Node's default: every interface (IPv6 and IPv4).
    await (config.host === undefined ? app.listen(config.port) : app.listen(config.port, config.host));
    warnAboutDevelopmentKey(app, config);
    logSummary(app, config, app.getHttpServer().address() as AddressInfo | string);
    return app;
  } catch (error) {
    root.fatal({ err: error }, `start-up failed: ${(error as Error).message}`);
    process.exit(1);
  }
}

/**
 * Graceful shutdown. On a signal Nest runs, in order: `onModuleDestroy`, `beforeApplicationShutdown`
 * (BullMQ workers stop taking jobs and finish the active ones: see QueueModule), closing the HTTP
 * server (no new connections; in-flight requests complete), then `onApplicationShutdown` (database
 * pool, Redis connections, queues). `useProcessExit` ends the process with code 0 once that is done.
 */
function stopOnSignals(context: INestApplicationContext): void {
  context.enableShutdownHooks(SHUTDOWN_SIGNALS, { useProcessExit: true });
  const logger = context.get(Logger);
  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, () => {
      logger.log(`${signal} received: finishing in-flight work, then exiting`, 'Bootstrap');
      setTimeout(() => {
        logger.error(`shutdown took longer than ${SHUTDOWN_DEADLINE_MS} ms: exiting anyway`, 'Bootstrap');
        process.exit(1);
      }, SHUTDOWN_DEADLINE_MS).unref();
    });
  }
}

/** The start-up's one info line (see startupSummary): also its fields as JSON, under `startup`. */
function logSummary(context: INestApplicationContext, config: AppConfig, address: AddressInfo | string | null): void {
  const { message, fields } = startupSummary(config, address, context.get(DatabaseStartup).preparation);
  context.get(Logger).log({ startup: fields }, message, 'Bootstrap');
}

function warnAboutDevelopmentKey(context: INestApplicationContext, config: AppConfig): void {
  if (!config.usingDevelopmentKey) return;
  context.get(Logger).warn('ENCRYPTION_KEY is not set: using the fixed development key. Never run production like this.', 'Bootstrap');
}
