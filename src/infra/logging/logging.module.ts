import type { IncomingMessage } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config.js';

import { assignRequestId } from '../http/request-id.middleware.js';

/** Structured JSON logs (pino), one line per request; credentials are redacted. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: assignRequestId,
          customProps: () => ({ role: config.role }),
          redact: {
            paths: [
              'req.headers.authorization',
              'req.headers.cookie',
              'req.headers["x-api-key"]',
              'res.headers["set-cookie"]',
            ],
            censor: '[redacted]',
          },
          serializers: {
            // Query strings may carry tokens pasted by mistake; log the path only.
            req: (req: { id: string; method: string; url: string }) => ({
              id: req.id,
              method: req.method,
              path: req.url.split('?')[0],
            }),
          },
          autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/health' },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
