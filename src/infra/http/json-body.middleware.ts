import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';
import { readAsRawBody } from './raw-body-routes.js';

export const JSON_BODY_REQUIRED = 'request body must be JSON (Content-Type: application/json)';
export const PAYLOAD_TOO_LARGE = 'payload too large';

/**
 * Whether the request carries body bytes. `Content-Length: 0` is no body (some clients send it on
 * every POST); a chunked body cannot be measured without reading it, so it counts as a body.
 */
function carriesBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

/** `application/json`, with or without parameters (`; charset=utf-8`): what the JSON parser reads. */
function isJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * The JSON parser skips a body of any other type, so the handler would see no body at all and the
 * client would get a validation error blaming the data (`invalid phone number` for
 * `curl -d '{"phone":…}'`, which sends a form type). Refusing such a body up front names the real
 * problem. Requests without a body are never refused for their Content-Type. (400, not 415: the
 * contract has no 415.) Raw-body routes (provider callbacks) take any Content-Type. Mounted through
 * `deferInputRefusals`: the 400 is answered after the guard chain (deferred-input.ts).
 */
export function jsonBodyMiddleware(limitBytes: number): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  return (req, _res, next) => {
    if (!carriesBody(req) || isJson(req) || readAsRawBody(req)) return next();
    // Over the size limit it is 413 at once, whatever its type, as a JSON body is (docs/api.md#check-order: the one
    // answer before the checks). Never read, so a chunked one can only be refused as not JSON.
    const length = Number(req.headers['content-length']);
    next(Number.isFinite(length) && length > limitBytes ? new ApiError(413, PAYLOAD_TOO_LARGE) : ApiError.badRequest(JSON_BODY_REQUIRED));
  };
}
