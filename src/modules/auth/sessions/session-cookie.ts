import type { SerializeOptions } from 'cookie';

export const SESSION_COOKIE = 'svc_session';
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

export function sessionCookieOptions(secure: boolean): SerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: SESSION_TTL_MS / 1000 };
}
