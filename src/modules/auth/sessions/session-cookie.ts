import type { Response } from 'express';
import { serialize, type SerializeOptions } from 'cookie';

export const SESSION_COOKIE = 'svc_session';
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

export function sessionCookieOptions(secure: boolean): SerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_TTL_MS / 1000 };
}

/** Sets `svc_session` (HttpOnly, SameSite=Lax, Path=/, Max-Age 7 days, Secure on https). */
export function writeSessionCookie(res: Response, token: string, secure: boolean): void {
  res.append('Set-Cookie', serialize(SESSION_COOKIE, token, sessionCookieOptions(secure)));
}

/** Tells the browser to drop `svc_session` (same attributes, so it replaces the right cookie). */
export function clearSessionCookie(res: Response, secure: boolean): void {
  res.append('Set-Cookie', serialize(SESSION_COOKIE, '', { ...sessionCookieOptions(secure), maxAge: 0, expires: new Date(0) }));
}
