import { parse, serialize, type SerializeOptions } from 'cookie';
import type { Request, Response } from 'express';
import { writeSessionCookie } from '../sessions/session-cookie.js';

/**
 * The two short-lived cookies of Google sign-in, both HttpOnly and SameSite=Lax (Lax: Google's
 * redirect back is a top-level GET from another site, which Lax cookies accompany; a cross-site
 * POST never carries them):
 * - `svc_google_flow`: one attempt's state, nonce and PKCE verifier, sealed (AES-GCM, so neither
 *   readable nor forgeable), sent only to the callback;
 * - `svc_google_pending`: the random token of a pending sign-up (stored hashed on the server),
 *   sent only to the Google routes.
 */
export const FLOW_COOKIE = 'svc_google_flow';
export const PENDING_COOKIE = 'svc_google_pending';
export const FLOW_TTL_MS = 10 * 60 * 1000;
export const PENDING_TTL_MS = 15 * 60 * 1000;

const FLOW_PATH = '/api/auth/google/callback';
const PENDING_PATH = '/api/auth/google';

function options(path: string, ttlMs: number, secure: boolean): SerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path, maxAge: ttlMs / 1000 };
}

function write(res: Response, name: string, value: string, opts: SerializeOptions): void {
  res.append('Set-Cookie', serialize(name, value, opts));
}

function clear(res: Response, name: string, opts: SerializeOptions): void {
  write(res, name, '', { ...opts, maxAge: 0, expires: new Date(0) });
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[name] : undefined;
}

export const writeFlowCookie = (res: Response, sealed: string, secure: boolean): void =>
  write(res, FLOW_COOKIE, sealed, options(FLOW_PATH, FLOW_TTL_MS, secure));
export const clearFlowCookie = (res: Response, secure: boolean): void => clear(res, FLOW_COOKIE, options(FLOW_PATH, FLOW_TTL_MS, secure));
export const writePendingCookie = (res: Response, token: string, secure: boolean): void =>
  write(res, PENDING_COOKIE, token, options(PENDING_PATH, PENDING_TTL_MS, secure));
export const clearPendingCookie = (res: Response, secure: boolean): void => clear(res, PENDING_COOKIE, options(PENDING_PATH, PENDING_TTL_MS, secure));

/**
 * The callback's cookies: the attempt is over either way (its flow cookie goes, so the same
 * callback URL cannot be replayed from this browser); a sign-in sets the session and drops any
 * pending sign-up; a new pending sign-up sets its cookie.
 */
export function writeCallbackCookies(res: Response, outcome: { sessionToken?: string; pendingToken?: string }, secure: boolean): void {
  clearFlowCookie(res, secure);
  if (outcome.sessionToken) {
    writeSessionCookie(res, outcome.sessionToken, secure);
    clearPendingCookie(res, secure);
  }
  if (outcome.pendingToken) writePendingCookie(res, outcome.pendingToken, secure);
}
