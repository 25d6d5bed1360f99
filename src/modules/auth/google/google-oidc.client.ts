import { Injectable, Logger } from '@nestjs/common';
import type * as Oidc from 'openid-client';
import { AppConfig, type GoogleSignInConfig } from '../../../infra/config/app-config.js';
import { Clock } from '../clock/clock.js';
import { GoogleSignInFailure } from './google-redirects.js';

/** The scopes asked for: the ID token then carries `email`, `email_verified` and `name`. */
export const GOOGLE_SCOPES = 'openid email profile';

// Discovery and token requests give up after this long, so a start never hangs on a silent issuer.
const REQUEST_TIMEOUT_SECONDS = 5;
// oauth4webapi's code for a token endpoint answer that is neither a success nor an OAuth error (a 502 page).
const RESPONSE_IS_NOT_CONFORM = 'OAUTH_RESPONSE_IS_NOT_CONFORM';
// After a failed discovery, the next attempt waits this long, doubling per failure up to the cap:
// a Google outage costs one request per interval, not one per click.
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 60_000;

/** The issuer could not be discovered (just now, or recently enough that the retry has to wait). */
export class IssuerUnavailable extends Error {
  constructor() {
    super('OpenID Connect issuer unavailable');
  }
}

type OidcLibrary = typeof Oidc;

/** openid-client and the issuer's discovered configuration. */
interface Relying {
  oidc: OidcLibrary;
  config: Oidc.Configuration;
}

/** What the verified ID token says about the person. */
export interface GoogleIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

/** The secrets of one sign-in attempt, kept by the browser (sealed) between start and callback. */
export interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * The OpenID Connect relying party (openid-client 6). The issuer's metadata is discovered on first
 * use, never at boot, so an unreachable issuer cannot delay or fail start-up; a success is kept for
 * the life of the process (the signing keys behind it are refetched by openid-client when Google
 * rotates them), a failure is retried after a backoff measured on the injected clock. openid-client
 * itself is loaded then too: a process without Google sign-in configured never loads it.
 */
@Injectable()
export class GoogleOidcClient {
  private readonly logger = new Logger('GoogleSignIn');
  private readonly settings: GoogleSignInConfig | undefined;
  private discovered: Relying | undefined;
  private inFlight: Promise<Relying> | undefined;
  private failures = 0;
  private retryAt = 0;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.settings = config.google;
  }

  get configured(): boolean {
    return this.settings !== undefined;
  }

  /** Fresh state, nonce and PKCE verifier for one attempt, and the URL that starts it at Google. */
  async begin(redirectUri: string): Promise<{ url: URL; checks: FlowChecks }> {
    const { oidc, config } = await this.configuration();
    const checks: FlowChecks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: GOOGLE_SCOPES,
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, checks };
  }

  /**
   * Redeems the code of `callbackUrl` (whose origin and path must equal the redirect URI) and
   * verifies the ID token: signature against the issuer's published keys, issuer, audience,
   * expiry and nonce. Throws `GoogleSignInFailure` with the reason the Console shows.
   */
  async finish(callbackUrl: URL, checks: FlowChecks): Promise<GoogleIdentity> {
    let relying: Relying;
    try {
      relying = await this.configuration();
    } catch {
      throw new GoogleSignInFailure('unavailable');
    }
    const { oidc, config } = relying;
    let tokens: Awaited<ReturnType<OidcLibrary['authorizationCodeGrant']>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
      });
    } catch (error) {
      throw this.classify(error, oidc);
    }
    return identityOf(tokens.claims());
  }

  private classify(error: unknown, oidc: OidcLibrary): GoogleSignInFailure {
    if (error instanceof oidc.ResponseBodyError) {
      // invalid_grant: the code was used already, expired, or belongs to another client or verifier.
      if (error.error === 'invalid_grant') return new GoogleSignInFailure('code_rejected');
      if (error.status >= 500) return this.unavailable(error);
      this.logger.error({ error: error.error, status: error.status }, 'Google refused the token request: check GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET');
      return new GoogleSignInFailure('provider_error');
    }
    if (isUnreachable(error)) return this.unavailable(error);
    this.logger.warn({ code: (error as { code?: string }).code, reason: describe(error) }, 'Google sign-in refused: the ID token did not verify');
    return new GoogleSignInFailure('invalid_token');
  }

  private unavailable(error: unknown): GoogleSignInFailure {
    this.logger.warn({ reason: describe(error) }, 'Google sign-in: the issuer could not be reached');
    return new GoogleSignInFailure('unavailable');
  }

  /** The discovered configuration; concurrent callers share one discovery. */
  private configuration(): Promise<Relying> {
    if (this.discovered) return Promise.resolve(this.discovered);
    if (this.inFlight) return this.inFlight;
    if (this.retryAt > this.clock.now()) return Promise.reject(new IssuerUnavailable());
    this.inFlight = this.discover().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async discover(): Promise<Relying> {
    const settings = this.settings;
    if (!settings) throw new Error('Google sign-in is not configured');
    const oidc = await import('openid-client');
    const issuer = new URL(settings.issuer);
    const execute = [oidc.enableNonRepudiationChecks];
    // Only a loopback issuer may be plain http (AppConfig refuses any other).
    if (issuer.protocol === 'http:') execute.push(oidc.allowInsecureRequests);
    try {
      const config = await oidc.discovery(issuer, settings.clientId, { client_secret: settings.clientSecret }, oidc.ClientSecretPost(settings.clientSecret), {
        execute,
        timeout: REQUEST_TIMEOUT_SECONDS,
      });
      this.discovered = { oidc, config };
      this.failures = 0;
      this.logger.log({ issuer: settings.issuer }, 'Google sign-in: issuer discovered');
      return this.discovered;
    } catch (error) {
      this.failures += 1;
      const delay = Math.min(RETRY_BASE_MS * 2 ** (this.failures - 1), RETRY_MAX_MS);
      this.retryAt = this.clock.now() + delay;
      this.logger.warn({ issuer: settings.issuer, reason: describe(error), retryInMs: delay }, 'Google sign-in: issuer discovery failed');
      throw new IssuerUnavailable();
    }
  }
}

/** The error and its causes, outermost first: openid-client wraps the network error that matters. */
function chain(error: unknown): unknown[] {
  const errors: unknown[] = [];
  for (let e = error; e && errors.length < 5; e = (e as { cause?: unknown }).cause) errors.push(e);
  return errors;
}

function describe(error: unknown): string {
  return chain(error)
    .map((e) => (e as { message?: unknown }).message)
    .filter((message) => typeof message === 'string')
    .join(': ');
}

/** No answer, a dropped connection, a timeout, or a reply that is not an OAuth answer at all (a 502 page). */
function isUnreachable(error: unknown): boolean {
  return chain(error).some((e) => {
    const { code, name, message } = e as { code?: string; name?: string; message?: string };
    return (
      // undici's network failure (by name: errors may come from another realm).
      (name === 'TypeError' && message === 'fetch failed') || name === 'TimeoutError' || code === 'OAUTH_TIMEOUT' || code === RESPONSE_IS_NOT_CONFORM
    );
  });
}

const MAX_NAME = 100;
// Control characters would end up in the Console and in mails (and NUL cannot be stored): matching
// them is the point of these two patterns.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// Printable, one @, no spaces: what a stored email must look like (Google's always do).
// eslint-disable-next-line no-control-regex
const EMAIL = /^[^\s@\u0000-\u001f\u007f-\u009f]+@[^\s@\u0000-\u001f\u007f-\u009f]+$/;

/** The claims the sign-in relies on, or a failure when the token lacks them. */
function identityOf(claims: Oidc.IDToken | undefined): GoogleIdentity {
  // openid-client already refused a response without an ID token (a nonce was expected).
  if (!claims) throw new GoogleSignInFailure('invalid_token');
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (email.length > 254 || !EMAIL.test(email)) throw new GoogleSignInFailure('email_missing');
  const text = (value: unknown): string => (typeof value === 'string' ? value.replace(CONTROL, ' ').trim() : '');
  const given = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  const name = text(claims.name) || given || email.split('@')[0]!;
  return {
    sub: claims.sub,
    email,
    // Google sends a boolean; some issuers send the string "true".
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name: [...name.trim()].slice(0, MAX_NAME).join(''),
  };
}
