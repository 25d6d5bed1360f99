import type { NextFunction, Request, Response } from 'express';

export const NOT_FOUND_BODY = { error: 'not found', code: 'not_found' } as const;

/**
 * Only an origin-form target (`/path?query`) names one of our routes. Express parses an
 * absolute-form target (`GET http://any.host/api/…`, meant for proxies) down to its path, and
 * `//api/…` or `///api/…` can be normalised onto a route or the Console's index by the layers
 * below; either way a request would reach a route under an address it never asked for. Both
 * get the unknown-path 404 before anything else runs; the target is never echoed back.
 */
export function requestTargetMiddleware(req: Request, res: Response, next: NextFunction): void {
  const url = req.url ?? '';
  if (url.startsWith('/') && !url.startsWith('//')) return next();
  res.status(404).json(NOT_FOUND_BODY);
}
