import type { NextFunction, Request, Response } from 'express';

/**
 * Routes any web origin may call with `fetch`, whatever CORS_ORIGINS says: they take no cookie
 * and no key (a one-time token in a header is their only authority), so no origin can act for a
 * user through them. The passkey extension calls them from its background worker
 * (docs/passkey.md). Preflights are answered here, 204.
 */
export function openCorsMiddleware(paths: readonly RegExp[], headers: string): (request: Request, response: Response, next: NextFunction) => void {
  return (request, response, next) => {
    const path = request.path;
    if (!paths.some((pattern) => pattern.test(path))) return next();
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Vary', 'Origin');
    if (request.method !== 'OPTIONS') return next();
    response.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    response.setHeader('Access-Control-Allow-Headers', headers);
    response.setHeader('Access-Control-Max-Age', '600');
    response.status(204).end();
  };
}
