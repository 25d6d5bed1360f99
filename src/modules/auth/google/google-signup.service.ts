import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../../../infra/crypto/hashing.js';
import type { SqlExecutor } from '../../../infra/database/sql-executor.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { toUserResponse } from '../accounts/account.mapper.js';
import { EMAIL_TAKEN, type SignIn } from '../accounts/account.service.js';
import { UserRepository, type UserRecord } from '../accounts/user.repository.js';
import { Clock } from '../clock/clock.js';
import type { ClientInfo } from '../decorators/client-info.decorator.js';
import type { GooglePendingResponse, RegisteredResponse } from '../dto/auth-responses.dto.js';
import { SessionService } from '../sessions/session.service.js';
import { GooglePendingRepository, type PendingSignup } from './google-pending.repository.js';

export const NO_PENDING_GOOGLE_SIGNUP = 'no pending Google sign-up';
export const GOOGLE_SIGNUP_EXPIRED = 'the Google sign-up expired: continue with Google again';
export const GOOGLE_EMAIL_UNVERIFIED =
  'an account with this email already exists and Google has not verified this address, so it cannot be linked: sign in with your password instead';
export const ACCOUNT_EMAIL_UNVERIFIED =
  'an account with this email already exists but its address is not verified: sign in with your password (or reset it), verify the address, then continue with Google';
export const LINKED_TO_OTHER_GOOGLE_ACCOUNT = 'an account with this email already exists and is linked to a different Google account';

/**
 * Sign in with Google, the sign-up half: `pending` shows the Console's confirm page what Google
 * said, `confirm` creates the account or links an existing one, and signs in.
 *
 * Linking by email needs the address verified on both sides. Google's `email_verified` alone is
 * not enough: whoever registered the address here without verifying it may not own it (they would
 * keep a password into the account that the real owner then uses); and a local account is never
 * handed to a Google account whose address Google has not verified.
 */
@Injectable()
export class GoogleSignupService {
  constructor(
    private readonly pending: GooglePendingRepository,
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
  ) {}

  async show(token: string | undefined): Promise<GooglePendingResponse> {
    const signup = token ? await this.pending.find(sha256Hex(token)) : null;
    const live = this.live(signup);
    return { email: live.email, name: live.name };
  }

  async confirm(token: string | undefined, client: ClientInfo): Promise<SignIn<RegisteredResponse>> {
    if (!token) throw ApiError.notFound(NO_PENDING_GOOGLE_SIGNUP);
    // One transaction with the pending row locked: a double click confirms once, and a refusal
    // (409) leaves the sign-up in place for a retry once the person has sorted their account out.
    const user = await this.pending.transaction(async (tx) => {
      const signup = this.live(await this.pending.findForUpdate(tx, sha256Hex(token)));
      const account = await this.createOrLink(tx, signup);
      await this.pending.delete(signup.id, tx);
      return account;
    });
    const { token: sessionToken } = await this.sessions.create(user.id, client);
    return { body: { user: toUserResponse(user) }, sessionToken };
  }

  private live(signup: PendingSignup | null): PendingSignup {
    if (!signup) throw ApiError.notFound(NO_PENDING_GOOGLE_SIGNUP);
    if (signup.expiresAt.getTime() <= this.clock.now()) throw ApiError.notFound(GOOGLE_SIGNUP_EXPIRED);
    return signup;
  }

  private async createOrLink(tx: SqlExecutor, signup: PendingSignup): Promise<UserRecord> {
    // Linked meanwhile (another tab finished first): this is simply a sign-in.
    const linked = await this.users.findByGoogleSub(signup.googleSub, tx);
    if (linked) return linked;

    const existing = await this.users.findByEmailForUpdate(tx, signup.email);
    if (!existing) {
      const created = await this.users.createFromGoogle(tx, {
        email: signup.email,
        name: signup.name,
        googleSub: signup.googleSub,
        emailVerifiedAt: signup.emailVerified ? this.clock.date() : null,
      });
      // Registered with this address between the lookup and the insert.
      if (!created) throw ApiError.conflict(EMAIL_TAKEN);
      return created;
    }
    if (!signup.emailVerified) throw ApiError.conflict(GOOGLE_EMAIL_UNVERIFIED);
    if (!existing.emailVerifiedAt) throw ApiError.conflict(ACCOUNT_EMAIL_UNVERIFIED);
    if (existing.googleSub || !(await this.users.linkGoogle(tx, existing.id, signup.googleSub))) {
      throw ApiError.conflict(LINKED_TO_OTHER_GOOGLE_ACCOUNT);
    }
    return { ...existing, googleSub: signup.googleSub };
  }
}
