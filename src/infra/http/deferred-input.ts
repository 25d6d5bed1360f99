import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';

type Next = (error?: unknown) => void;
/** A Connect/Express middleware on Node's own request and response types. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

const REFUSAL = Symbol('deferred input refusal');
type DeferringRequest = IncomingMessage & { [REFUSAL]?: unknown };

/**
 * body-parser's refusals of what the client wrote (json-depth.ts adds its own `entity.*` types).
 * Not here, so still answered at once: `entity.too.large` (413, a transport limit that stops
 * reading the body), `request.aborted` (nobody left to answer) and `request.size.invalid` (the
 * body does not match its Content-Length).
 */
const INPUT_TYPES = new Set([
  'entity.parse.failed',
  'entity.not.utf8',
  'entity.too.deep',
  'entity.too.wide',
  'entity.too.many',
  'charset.unsupported',
  'encoding.unsupported',
]);

/** Whether `error` refuses the request's input (a 400 of the input-validation step). */
function isInputRefusal(error: unknown): boolean {
  if (error instanceof ApiError) return error.getStatus() === 400;
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' && INPUT_TYPES.has(type);
}

/**
 * Runs a body or input middleware whose refusals are input errors, and keeps such a refusal on the
 * request instead of answering it: docs/api.md's check order puts input validation (400) after
 * authentication, workspace, roles and subscription, and an unknown path is 404 whatever its body.
 * The refusal is raised by `DeferredInputInterceptor` once the guard chain has passed. The first
 * refusal of a request wins (the order the checks ran in before); other errors pass on as before.
 */
export function deferInputRefusals(middleware: Middleware): Middleware {
  return (req, res, next) => {
    middleware(req, res, (error?: unknown) => {
      if (error === undefined || error === null || !isInputRefusal(error)) return next(error);
      const request = req as DeferringRequest;
      if (!(REFUSAL in request)) request[REFUSAL] = error;
      next();
    });
  };
}

/** The input refusal kept for this request, if any (thrown as is: the error filter shapes it). */
export function deferredInputRefusal(req: IncomingMessage): unknown {
  return (req as DeferringRequest)[REFUSAL];
}

/**
 * For routes served outside Nest (the OpenAPI document and explorer), which no interceptor
 * reaches: they take no input and answer any refusal right away, as every route did before.
 */
export function refuseDeferredInput(req: IncomingMessage, _res: ServerResponse, next: Next): void {
  const refusal = deferredInputRefusal(req);
  next(refusal === undefined ? undefined : refusal);
}
