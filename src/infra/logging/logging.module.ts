import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, type LoggerService, Module, type Provider } from '@nestjs/common';
import { Logger as NestLogger, LoggerModule, type Params, PinoLogger } from 'nestjs-pino';
import pino, { type DestinationStream, type Logger } from 'pino';
import { type HttpLogger, pinoHttp } from 'pino-http';
import { AppConfig } from '../config/app-config.js';
import { loggablePath } from '../http/loggable-path.js';
import { assignRequestId } from '../http/request-id.js';
import { installConsoleGuard } from './console-guard.js';
import { FrameworkQuietLogger } from './framework-logger.js';
import { prettyStream } from './pretty-stream.js';

/** The process's one pino logger. A test overrides this provider to read the lines it causes. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

// Signal key material by the names libsignal's session records and Baileys' credentials give it,
// in what reaches pino directly (the console guard strips the Signal stack's console output).
const SIGNAL_KEY_FIELDS = ['privKey', 'pubKey', 'rootKey', 'chainKey', 'baseKey'];
const CREDENTIAL_KEY_FIELDS = ['messageKeys', 'private', 'noiseKey', 'signedIdentityKey', 'advSecretKey'];
const CENSOR = '[redacted]';
// Every line of the process pays for every path; plain ones (no wildcard) cost next to nothing.
const ROOT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  // The passkey extension's one-time token (docs/passkey.md).
  'req.headers["x-passkey-token"]',
  'res.headers["set-cookie"]',
  ...SIGNAL_KEY_FIELDS,
  ...CREDENTIAL_KEY_FIELDS,
];

/**
 * The redaction of the loggers the Signal stack writes to (Baileys' and its children): the root's
 * paths and a record's own five key names one level down too (`{ ratchet: { rootKey } }`). A
 * wildcard path costs each line a few microseconds, so only these loggers have them, not the
 * request lines. A child's `redact` replaces its parent's, hence the root's paths again.
 */
export const SIGNAL_STACK_REDACT: pino.redactOptions = {
  paths: [...ROOT_PATHS, ...SIGNAL_KEY_FIELDS.map((name) => `*.${name}`)],
  censor: CENSOR,
};

/**
 * The root logger: JSON lines on stdout (readable ones with LOG_FORMAT=pretty; or on
 * `destination`), with credentials and top-level Signal key fields redacted (deeper ones on the
 * Baileys logger only: SIGNAL_STACK_REDACT) and SQL
 * parameters dropped from errors: a failed INSERT carries the row's values (emails, password
 * hashes, message text) in `parameters`, which must never reach a log.
 */
export function createRootLogger(config: AppConfig, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    base: { pid: process.pid, role: config.role },
    redact: { paths: ROOT_PATHS, censor: CENSOR },
    serializers: { err: serializeError },
  };
  const stream = destination ?? (config.logFormat === 'pretty' ? prettyStream() : undefined);
  return stream ? pino(options, stream) : pino(options);
}

function serializeError(error: Error): pino.SerializedError {
  const serialized = pino.stdSerializers.err(error);
  delete serialized.parameters;
  return serialized;
}

// Load-balancer probes and Prometheus scrapes come every few seconds and say nothing.
const PROBE_PATHS = new Set(['/api/health', '/metrics']);
const isHealthProbe = (req: IncomingMessage): boolean => (req.method === 'GET' || req.method === 'HEAD') && PROBE_PATHS.has(req.url?.split('?')[0] ?? '');

/**
 * The request logger: one line per request when its response is finished, whatever answered it
 * (a route, the 404 handler, the body parser's 400/413, the CORS preflight), so it is mounted as
 * the very first middleware (configureApp). Load-balancer health probes and metrics scrapes are not logged.
 */
export function createHttpLogger(root: Logger): HttpLogger<IncomingMessage, ServerResponse> {
  return pinoHttp({
    logger: root,
    genReqId: assignRequestId,
    // pino-http gives its child logger its own serializers, so the error one is repeated here.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: loggablePath(req.url) }),
      err: serializeError,
    },
    autoLogging: { ignore: isHealthProbe },
    // For a 5xx, pino-http invents an Error ("failed with status code 503") and logs its stack
    // with the request line. The real error, if any, is logged once by AllExceptionsFilter; an
    // expected refusal (an unconfigured feature's 503) has none. So the line stays a plain one.
    customErrorObject: (_req, res, error, line: Record<string, unknown>) =>
      isInventedError(res, error) ? { res: line.res, responseTime: line.responseTime } : line,
    customErrorMessage: (_req, res, error) => (isInventedError(res, error) ? 'request completed' : 'request errored'),
  });
}

function isInventedError(res: ServerResponse & { err?: unknown }, error: Error): boolean {
  return res.err === undefined && error.message === `failed with status code ${res.statusCode}`;
}

/** nestjs-pino's settings: Nest's logs go to `root`; the request middleware is ours (`useExisting`). */
function loggerParams(root: Logger): Params {
  return { pinoHttp: { logger: root }, useExisting: true };
}

/**
 * The module's settings, once its root logger exists (a test may have replaced it): the console
 * guard is installed here so every process that boots the app has it, in every role.
 */
function moduleParams(root: Logger): Params {
  installConsoleGuard(root);
  return loggerParams(root);
}

/** A Nest logger on `root`, for the start-up, before the application and its DI exist. */
export function bootLogger(root: Logger): LoggerService {
  const params = loggerParams(root);
  return new FrameworkQuietLogger(new NestLogger(new PinoLogger(params), params));
}

/**
 * Structured JSON logs (pino): nestjs-pino adapts Nest's logger to the root logger and keeps each
 * request's logger in context. `root` is the process's logger when it already has one (main.ts);
 * otherwise (tests) it is built from the configuration. Console output of the Signal stack goes to
 * that logger (console-guard.ts).
 */
@Module({})
export class LoggingModule {
  static forRoot(root?: Logger): DynamicModule {
    const rootProvider: Provider = root
      ? { provide: ROOT_LOGGER, useValue: root }
      : { provide: ROOT_LOGGER, inject: [AppConfig], useFactory: (config: AppConfig) => createRootLogger(config) };
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRootAsync({ providers: [rootProvider], inject: [ROOT_LOGGER], useFactory: moduleParams })],
    };
  }
}
