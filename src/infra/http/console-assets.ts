import { join } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/**
 * First path segments of the Console's client-side routes (console/src/routes.ts holds the
 * router; test/console/console-serving.spec.ts keeps both lists equal). A reload or a mailed link
 * on one of them gets `index.html`; every other path keeps the API's 404 JSON, so the Console
 * never answers HTML for a path it does not know.
 */
export const CONSOLE_ROUTE_ROOTS = [
  '',
  'login',
  'signup',
  'verify-email',
  'forgot-password',
  'reset-password',
  'accept-invite',
  'workspaces',
  'connect',
  'inbox',
  'mentions',
  'contacts',
  'templates',
  'automations',
  'knowledge',
  'reports',
  'search',
  'settings',
] as const;

const ROUTE_ROOTS: ReadonlySet<string> = new Set(CONSOLE_ROUTE_ROOTS);

// Vite names every file under assets/ after a hash of its content: a changed file gets a new
// name, so browsers may keep these for a year without asking again.
const IMMUTABLE = 'public, max-age=31536000, immutable';

// The page itself must be revalidated on every load, or a deploy would leave browsers on old
// asset names. The token-carrying pages (verify, reset, invite) must not leak their URL through
// `Referer`, and the Console is never framed (clickjacking).
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': [
    "default-src 'self'",
    // Meta's SDK, loaded only by the guided signup of a Cloud API number (its window and frames).
    "script-src 'self' https://connect.facebook.net",
    'frame-src https://*.facebook.com',
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self' https://*.facebook.com",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/** Whether `path` (decoded, without query) is the Console's to answer: never `/api…` or `/metrics`. */
function isConsolePath(path: string): boolean {
  return !(path === '/api' || path.startsWith('/api/') || path === '/metrics');
}

/** A client-side route: its first segment is one of the Console's, and it names no file. */
export function isConsoleRoute(path: string): boolean {
  const segments = path.split('/');
  const last = segments[segments.length - 1] ?? '';
  return ROUTE_ROOTS.has(segments[1] ?? '') && !last.includes('.');
}

/**
 * Serves the Console: its files from `dir` (hashed assets with a year of caching), and
 * `index.html` for its client-side routes. Only GET and HEAD of plain paths outside `/api`;
 * anything else, and any path it does not know, goes on to the API (whose 404 is JSON).
 */
export function consoleAssets(dir: string): RequestHandler {
  const index = join(dir, 'index.html');
  const files = express.static(dir, {
    index: false,
    redirect: false,
    fallthrough: true,
    dotfiles: 'ignore',
    etag: true,
    lastModified: true,
    setHeaders: (res, path) => {
      if (path.startsWith(join(dir, 'assets'))) res.setHeader('Cache-Control', IMMUTABLE);
      else if (path === index) res.set(PAGE_HEADERS);
      else res.setHeader('Cache-Control', 'no-cache');
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url.startsWith('/') || !isConsolePath(req.path)) return next();
    files(req, res, () => {
      if (!isConsoleRoute(req.path)) return next();
      res.sendFile(index, { headers: PAGE_HEADERS, etag: true, lastModified: false }, (error?: Error) => {
        // Not built (a development checkout before `npm run build:console`): the API's 404.
        if (error && !res.headersSent) next();
      });
    });
  };
}
