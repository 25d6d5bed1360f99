/**
 * Where the Google callback sends the browser: pages of the Console, on the same origin as the
 * callback (so relative paths). docs/accounts.md ("Google sign-in") lists them for the Console.
 */
export const CONSOLE_HOME = '/';
export const CONSOLE_GOOGLE_SIGNUP = '/signup/google';

/**
 * Why a Google sign-in failed, as `reason` on `/login?error=google&reason=…`. Short, stable codes
 * the Console maps to a sentence; never details an attacker could use.
 */
export const GOOGLE_FAILURE_REASONS = [
  /** Google sign-in is not configured on this server. */
  'not_configured',
  /** The person cancelled on Google's consent screen (`error=access_denied`). */
  'access_denied',
  /** Google sent the browser back with another error, or without a code. */
  'provider_error',
  /** No sign-in attempt of this browser is waiting: its cookie is missing, unreadable or older than 10 minutes (also: a callback opened twice). */
  'flow_expired',
  /** The `state` Google returned is not this browser's attempt (tampered with, or another tab's). */
  'state_mismatch',
  /** Google refused the authorization code: already used (a replay), expired, or not ours. */
  'code_rejected',
  /** The ID token failed verification: signature, issuer, audience, expiry or nonce. */
  'invalid_token',
  /** The ID token has no usable email address (the email scope was not granted). */
  'email_missing',
  /** Google could not be reached (discovery or the token endpoint failed or timed out). */
  'unavailable',
] as const;
export type GoogleFailureReason = (typeof GOOGLE_FAILURE_REASONS)[number];

export function consoleLoginFailure(reason: GoogleFailureReason): string {
  return `/login?error=google&reason=${reason}`;
}

/** A failed callback; the controller turns it into the redirect to the Console's login page. */
export class GoogleSignInFailure extends Error {
  constructor(readonly reason: GoogleFailureReason) {
    super(`Google sign-in failed: ${reason}`);
  }
}
