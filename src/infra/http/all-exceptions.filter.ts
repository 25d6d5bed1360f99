import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from './api-error.js';
import { isDependencyUnavailable, postgresDataException } from './dependency-errors.js';
import { PAYLOAD_TOO_LARGE } from './json-body.middleware.js';
import { loggablePath } from './loggable-path.js';
import { MALFORMED_URL, NUL_REFUSED } from './text-input.middleware.js';
import { BODY_NOT_AN_OBJECT } from './validation.pipe.js';

interface ErrorBody {
  error: string;
  code?: string;
  [extra: string]: unknown;
}

export const DEPENDENCY_UNAVAILABLE = 'service temporarily unavailable, please retry';

// Nest's own "no route matched" exception reads `Cannot GET /path`, and echoes whatever target
// the client sent (`*`, `http://other.example/…`): matched on the method alone, never echoed.
const ROUTE_NOT_FOUND = /^Cannot [A-Z]+ /;

/** Errors thrown by Express middleware (body-parser) before a route runs. */
interface MiddlewareError {
  type?: string;
  status?: number;
  expose?: boolean;
  message?: string;
  /** body-parser: the text it could not take. */
  body?: unknown;
}

/**
 * Why the JSON parser refused a body. It is strict: a bare string, number, boolean or null is
 * well-formed JSON all the same, and "malformed" would send the caller looking for a typo.
 */
function unparsedBody(error: MiddlewareError | undefined): string {
  if (typeof error?.body === 'string' && /^\s*["\-\dtfn]/.test(error.body)) {
    try {
      JSON.parse(error.body);
      return BODY_NOT_AN_OBJECT;
    } catch {
      // Not JSON at all.
    }
  }
  return 'malformed JSON body';
}

/**
 * The one place that shapes error responses. Every error leaves as `{"error": "...", "code"?}`
 * (docs/api.md#errors): no stack traces, no 405, no 422, and a request id in the log for 500s.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const [status, body] = this.toResponse(exception);
    const where = { requestId: request.id, method: request.method, url: loggablePath(request.originalUrl) };
    if (status >= 500 && exception instanceof ApiError) {
      // A refusal the code chose (a feature not configured): expected, no stack to read.
      this.logger.warn({ status, error: body.error, ...where }, 'request refused');
    } else if (status >= 500) {
      this.logger.error({ err: exception, ...where }, 'request failed');
    } else {
      // Bad input that only the database noticed: a 400 for the client, and for developers a pointer
      // to the validation to fix. Postgres quotes the refused value in its message: not logged.
      const sqlState = postgresDataException(exception);
      if (sqlState) this.logger.warn({ sqlState, ...where }, 'input refused by the database');
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    if (exception instanceof ApiError) for (const [name, value] of Object.entries(exception.headers)) response.setHeader(name, value);
    // `json()` keeps a Content-Type a route set for its success answer (`@Header`, e.g. text/plain).
    response.status(status).type('application/json').json(body);
  }

  private toResponse(exception: unknown): [number, ErrorBody] {
    if (exception instanceof ApiError) return [exception.getStatus(), exception.getResponse() as ErrorBody];

    if (exception instanceof HttpException) {
      // Nest wraps body-parser and URL-decoding failures; their raw texts are parser internals.
      const cause = exception.cause as MiddlewareError | undefined;
      if (cause?.type === 'entity.parse.failed' || cause instanceof SyntaxError) return [400, { error: unparsedBody(cause) }];
      if (cause instanceof URIError) return [400, { error: MALFORMED_URL }];
      const status = exception.getStatus();
      const message = messageOf(exception.getResponse()) ?? exception.message;
      if (status === 404 && ROUTE_NOT_FOUND.test(message)) return [404, { error: 'not found', code: 'not_found' }];
      if (status === 405) return [404, { error: 'not found', code: 'not_found' }];
      if (status === 422 || status === 415) return [400, { error: message }];
      if (status === 413) return [413, { error: PAYLOAD_TOO_LARGE }];
      if (status >= 500) return [status, { error: status === 500 ? 'internal server error' : message }];
      return [status, { error: message }];
    }

    const middleware = exception as MiddlewareError;
    if (middleware && typeof middleware === 'object' && typeof middleware.status === 'number') {
      if (middleware.type === 'entity.too.large' || middleware.status === 413) return [413, { error: PAYLOAD_TOO_LARGE }];
      if (middleware.type === 'entity.parse.failed') return [400, { error: unparsedBody(middleware) }];
      if (middleware.status >= 400 && middleware.status < 500 && middleware.expose !== false) {
        return [middleware.status === 415 ? 400 : middleware.status, { error: middleware.message ?? 'bad request' }];
      }
    }

    if (isDependencyUnavailable(exception)) return [503, { error: DEPENDENCY_UNAVAILABLE }];
    const dataException = postgresDataException(exception);
    if (dataException === '22021' || dataException === '22P05') return [400, { error: NUL_REFUSED }];
    if (dataException) return [400, { error: 'invalid input' }];
    return [500, { error: 'internal server error' }];
  }
}

function messageOf(response: string | object): string | undefined {
  if (typeof response === 'string') return response;
  const record = response as Record<string, unknown>;
  const value = record.error && typeof record.message !== 'string' && !Array.isArray(record.message) ? record.error : record.message;
  if (Array.isArray(value)) return value.join('; ');
  return typeof value === 'string' ? value : undefined;
}
