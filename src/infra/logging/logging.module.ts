import type { IncomingMessage } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule, PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { AppConfig } from '../config/app-config.js';
import { loggablePath } from '../http/loggable-path.js';
import { assignRequestId } from '../http/request-id.middleware.js';

/** Token of the logger settings; a test overrides it to read the log lines it causes. */
export const LOGGER_PARAMS = PARAMS_PROVIDER_TOKEN;

/**
 * The pino settings for `config`: JSON lines on stdout, or on `destination` when given. Note that
 * nestjs-pino builds one root logger per process (per test file under Jest), from the first app
 * that logs.
 */
export function loggerParams(config: AppConfig, destination?: DestinationStream): Params {
  const options: Options = {
    level: config.logLevel,
    genReqId: assignRequestId,
    customProps: () => ({ role: config.role }),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: loggablePath(req.url) }),
    },
    autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/health' },
  };
  return { pinoHttp: destination ? [options, destination] : options };
}

/** Structured JSON logs (pino), one line per request; credentials are redacted. */
@Module({
  imports: [LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: (config: AppConfig) => loggerParams(config) })],
})
export class LoggingModule {}
