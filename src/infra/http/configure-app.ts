import express from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER, createHttpLogger } from '../logging/logging.module.js';
import { consoleAssets } from './console-assets.js';
import { httpMetricsMiddleware } from '../metrics/http-metrics.js';
import { MetricsRegistry } from '../metrics/metrics.registry.js';
import { HttpDrain } from './http-drain.js';
import { nameDecompressionErrors } from './compressed-body.js';
import { openCorsMiddleware } from './open-cors.middleware.js';
import { deferInputRefusals } from './deferred-input.js';
import { jsonBodyMiddleware } from './json-body.middleware.js';
import { verifyJsonBody } from './json-depth.js';
import { answerParserErrors } from './parser-errors.js';
import { rawBodyRoutesMiddleware } from './raw-body-routes.js';
import { requestTargetMiddleware } from './request-target.middleware.js';
import { setupOpenApi } from './openapi.js';
import { textInputMiddleware } from './text-input.middleware.js';

export const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
export const CORS_HEADERS = 'Content-Type, Authorization, X-Tenant-ID';
/** The passkey extension's routes (docs/passkey.md): open to any origin. */
const PASSKEY_EXTENSION_ROUTES = [/^\/api\/chat\/passkey\/[^/]+\/(challenge|assertion)$/];

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
  // genReqId) whatever answers it: the body parser's 413 and the CORS preflight end the
  // request before any route or Nest middleware runs.
  const root = app.get<Logger>(ROOT_LOGGER);
  const httpLogger = createHttpLogger(root);
  app.use(httpLogger);
  app.use(httpMetricsMiddleware(app.get(MetricsRegistry)));
  answerParserErrors(app.getHttpServer(), root, httpLogger);
  app.use(app.get(HttpDrain).middleware);
  // The passkey extension's two routes answer any origin (their token is their only authority).
  app.use(openCorsMiddleware(PASSKEY_EXTENSION_ROUTES, 'Content-Type, X-Passkey-Token'));
  // Before the body checks: every OPTIONS is a preflight answered 204 (README), whatever its
  // query string or body holds.
  app.enableCors({
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    methods: CORS_METHODS,
    allowedHeaders: CORS_HEADERS,
    credentials: false,
    preflightContinue: false,
    optionsSuccessStatus: 204,
  });
  // Absolute-form targets and `//…` paths never reach a route (404 not_found).
  app.use(requestTargetMiddleware);
  // Provider callbacks keep their exact bytes (signatures) and their own size limit.
  app.use(rawBodyRoutesMiddleware);
  // The Console's files and client-side routes; never `/api…`, whose unknown paths stay JSON 404s.
  app.use(consoleAssets(config.consoleDir));
  // Nesting depth is refused before parsing, NUL and ill-formed Unicode right after it: all
  // before any pipe, validation or transformation sees the input. Those refusals are input
  // errors: kept on the request and answered by DeferredInputInterceptor after the guard chain
  // (docs/api.md#check-order; an unknown path stays 404). A body over the limit is 413 at once.
  // express.json directly: Nest's useBodyParser does not take a `verify` step.
  app.use(deferInputRefusals(jsonBodyMiddleware(config.bodyLimitBytes))); // before the parser, which would silently skip a non-JSON body
  app.use(deferInputRefusals(nameDecompressionErrors(express.json({ limit: config.bodyLimit, verify: verifyJsonBody }))));
  app.use(deferInputRefusals(textInputMiddleware));
  // Signal handling (graceful shutdown) is a process concern: bootstrap.ts sets it up, so tests
  // that boot many apps in one process do not pile up signal listeners.
  setupOpenApi(app);
}
