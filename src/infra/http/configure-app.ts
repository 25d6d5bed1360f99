import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER, createHttpLogger } from '../logging/logging.module.js';
import { HttpDrain } from './http-drain.js';
import { jsonBodyMiddleware } from './json-body.middleware.js';
import { nulCharactersMiddleware } from './nul-characters.middleware.js';
import { setupOpenApi } from './openapi.js';

export const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
export const CORS_HEADERS = 'Content-Type, Authorization, X-Tenant-ID';

/**
 * HTTP settings shared by `main.ts` and the test harness, so tests exercise exactly what runs in
 * production. Filters, pipes and guards are registered in AppModule; this covers the rest.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.set('trust proxy', config.trustProxy);
  app.set('x-powered-by', false);
  app.set('etag', false);
  app.set('query parser', 'simple');
  // First, so every request is logged and has an id (X-Request-Id, given by the logger's
  // genReqId) whatever answers it: the body parser's 400/413 and the CORS preflight end the
  // request before any route or Nest middleware runs.
  app.use(createHttpLogger(app.get<Logger>(ROOT_LOGGER)));
  app.use(app.get(HttpDrain).middleware);
  app.use(jsonBodyMiddleware); // before the parser, which would silently skip a non-JSON body
  app.useBodyParser('json', { limit: config.bodyLimit });
  app.use(nulCharactersMiddleware);
  app.enableCors({
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    methods: CORS_METHODS,
    allowedHeaders: CORS_HEADERS,
    credentials: false,
    preflightContinue: false,
    optionsSuccessStatus: 204,
  });
  // Signal handling (graceful shutdown) is a process concern: bootstrap.ts sets it up, so tests
  // that boot many apps in one process do not pile up signal listeners.
  setupOpenApi(app);
}
