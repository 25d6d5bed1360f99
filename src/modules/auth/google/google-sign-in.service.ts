import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { randomToken, sha256Hex } from '../../../infra/crypto/hashing.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { UserRepository } from '../accounts/user.repository.js';
import { Clock } from '../clock/clock.js';
import type { ClientInfo } from '../decorators/client-info.decorator.js';
import type { ProvidersResponse } from '../dto/auth-responses.dto.js';
import { SessionService } from '../sessions/session.service.js';
import { PENDING_TTL_MS } from './google-cookies.js';
import { GoogleFlowSealer } from './google-flow-sealer.js';
import { GoogleOidcClient, IssuerUnavailable, type GoogleIdentity } from './google-oidc.client.js';
import { GooglePendingRepository } from './google-pending.repository.js';
import { CONSOLE_GOOGLE_SIGNUP, CONSOLE_HOME, GoogleSignInFailure, consoleLoginFailure } from './google-redirects.js';

export const GOOGLE_NOT_CONFIGURED = 'Google sign-in is not configured';
export const GOOGLE_UNAVAILABLE = 'Google sign-in is temporarily unavailable: Google could not be reached, please try again in a minute';

export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';

/** The parameters of Google's redirect back that the callback reads (all optional: anyone can call it). */
export interface CallbackQuery {
  code?: unknown;
  state?: unknown;
  error?: unknown;
}

/** Where the callback sends the browser, and the cookie it sets on the way (at most one). */
export interface CallbackOutcome {
  location: string;
  sessionToken?: string;
  pendingToken?: string;
}

/**
 * Sign in with Google, the redirect half (issue 17): `start` sends the browser to Google with a
 * fresh state, nonce and PKCE challenge; `callback` checks what comes back, redeems the code, and
 * either signs a linked account in or parks a pending sign-up for the Console's confirm page
 * (GoogleSignupService takes it from there).
 */
@Injectable()
export class GoogleSignInService {
  private readonly logger = new Logger('GoogleSignIn');
  private readonly redirectUri: string;

  constructor(
    config: AppConfig,
    private readonly oidc: GoogleOidcClient,
    private readonly sealer: GoogleFlowSealer,
    private readonly users: UserRepository,
    private readonly pending: GooglePendingRepository,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
  ) {
    this.redirectUri = `${config.publicUrl}${GOOGLE_CALLBACK_PATH}`;
  }

  providers(): ProvidersResponse {
    return { password: true, google: this.oidc.configured };
  }

  /** Google's authorization URL and the sealed flow cookie that the callback will need. */
  async start(): Promise<{ location: string; flowCookie: string }> {
    if (!this.oidc.configured) throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
    let begun: Awaited<ReturnType<GoogleOidcClient['begin']>>;
    try {
      begun = await this.oidc.begin(this.redirectUri);
    } catch (error) {
      if (error instanceof IssuerUnavailable) throw new ApiError(503, GOOGLE_UNAVAILABLE);
      throw error;
    }
    return { location: begun.url.href, flowCookie: this.sealer.seal(begun.checks) };
  }

  /**
   * Every sign-in failure becomes a redirect to the Console's login page with its reason; only an
   * outage of our own database or Redis surfaces as an error (503).
   */
  async callback(query: CallbackQuery, flowCookie: string | undefined, search: string, client: ClientInfo): Promise<CallbackOutcome> {
    try {
      return await this.complete(query, flowCookie, search, client);
    } catch (error) {
      if (!(error instanceof GoogleSignInFailure)) throw error;
      this.logger.log({ reason: error.reason }, 'Google sign-in failed');
      return { location: consoleLoginFailure(error.reason) };
    }
  }

  private async complete(query: CallbackQuery, flowCookie: string | undefined, search: string, client: ClientInfo): Promise<CallbackOutcome> {
    if (!this.oidc.configured) throw new GoogleSignInFailure('not_configured');
    if (query.error !== undefined) throw new GoogleSignInFailure(query.error === 'access_denied' ? 'access_denied' : 'provider_error');
    const checks = this.sealer.open(flowCookie);
    if (!checks) throw new GoogleSignInFailure('flow_expired');
    if (query.state !== checks.state) throw new GoogleSignInFailure('state_mismatch');
    if (typeof query.code !== 'string' || !query.code) throw new GoogleSignInFailure('provider_error');

    // The URL Google redirected to: the registered redirect URI plus the response parameters.
    const callbackUrl = new URL(this.redirectUri);
    callbackUrl.search = search;
    const identity = await this.oidc.finish(callbackUrl, checks);

    const linked = await this.users.findByGoogleSub(identity.sub);
    if (linked) {
      // Google vouching for the very address the account has is as good as our emailed link.
      if (identity.emailVerified && identity.email === linked.email && !linked.emailVerifiedAt) {
        await this.users.markEmailVerified(linked.id, this.clock.date());
      }
      const { token } = await this.sessions.create(linked.id, client);
      return { location: CONSOLE_HOME, sessionToken: token };
    }
    return { location: CONSOLE_GOOGLE_SIGNUP, pendingToken: await this.park(identity) };
  }

  /** Stores a pending sign-up and answers the token for its cookie (only the hash is stored). */
  private async park(identity: GoogleIdentity): Promise<string> {
    const token = randomToken(32);
    await this.pending.replace(
      {
        tokenHash: sha256Hex(token),
        googleSub: identity.sub,
        email: identity.email,
        emailVerified: identity.emailVerified,
        name: identity.name,
        expiresAt: this.clock.date(PENDING_TTL_MS),
      },
      this.clock.date(),
    );
    return token;
  }
}
