import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';

/**
 * A route whose body is kept as raw bytes and never parsed by the JSON body parser: provider
 * callbacks, whose signature covers the exact bytes and must be checked before anything reads
 * them. Its own size limit replaces BODY_LIMIT (413 `payload too large` above it).
 */
export interface RawBodyRoute {
  method: 'POST' | 'PUT';
  path: string;
  /** Largest body in bytes. */
  limit: number;
}

export type RawBodyRequest = IncomingMessage & { rawBody?: Buffer; body?: unknown };

type Next = (error?: unknown) => void;

// Declared by the feature that owns the route, when its module is loaded (before the app is
// configured): the plumbing cannot import features.
const routes: RawBodyRoute[] = [];

export function declareRawBodyRoute(route: RawBodyRoute): void {
  if (!routes.some((r) => r.method === route.method && r.path === route.path)) routes.push(route);
}

const pathOf = (req: IncomingMessage): string => (req.url ?? '').split('?')[0]!.replace(/(.)\/+$/, '$1');

/** Whether the request's body was read as raw bytes (the JSON body checks then leave it alone). */
export const readAsRawBody = (req: IncomingMessage): boolean => Buffer.isBuffer((req as RawBodyRequest).rawBody);

/**
 * Reads the body of a declared raw route into `req.rawBody` (any Content-Type, any
 * Content-Encoding left as it is, at most the route's limit in bytes as sent) and leaves `req.body` empty, so no later step parses or walks it. The JSON
 * parser then skips the request: body-parser marks a request whose body it has read.
 */
export function rawBodyRoutesMiddleware(req: IncomingMessage, res: ServerResponse, next: Next): void {
  const path = pathOf(req);
  const route = routes.find((r) => r.method === req.method && r.path === path);
  if (!route) return next();
  // The bytes as sent: a signature covers them, so nothing is decoded (inflated) before it is
  // checked; a compressed body then fails its signature (401) or, signed as sent, its parsing.
  delete req.headers['content-encoding'];
  const parse = express.raw({ type: () => true, limit: route.limit, inflate: false });
  parse(req as express.Request, res as express.Response, (error?: unknown) => {
    if (error) return next(error);
    const request = req as RawBodyRequest;
    request.rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    request.body = undefined;
    next();
  });
}
