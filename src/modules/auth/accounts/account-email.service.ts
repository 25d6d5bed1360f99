import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { randomToken, sha256Hex } from '../../../infra/crypto/hashing.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { MailService } from '../../../infra/mail/mail.service.js';
import { Clock } from '../clock/clock.js';
import type { EmailTokenPurpose } from '../entities/email-token.entity.js';
import { SessionService } from '../sessions/session.service.js';
import { passwordResetMail, verificationMail } from './account-mails.js';
import { BackgroundWork } from './background-work.js';
import { EmailTokenRepository } from './email-token.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { UserRepository } from './user.repository.js';

export const VERIFY_TOKEN_TTL_MS = 48 * 3600 * 1000;
export const RESET_TOKEN_TTL_MS = 3600 * 1000;
export const INVALID_TOKEN = 'invalid or expired token';

/** Email verification and password reset: random one-time tokens, stored hashed, with expiry. */
@Injectable()
export class AccountEmailService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: EmailTokenRepository,
    private readonly sessions: SessionService,
    private readonly mail: MailService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly passwords: PasswordHasher,
    private readonly background: BackgroundWork,
  ) {}

  /** Issues a fresh verification link (older ones stop working) and mails it. */
  async sendVerification(user: { id: string; email: string; name: string }): Promise<void> {
    const token = await this.issue(user.id, 'verify_email', VERIFY_TOKEN_TTL_MS);
    this.mail.dispatch(verificationMail(user.email, user.name, this.link('/verify-email', token)));
  }

  /**
   * Always `{ok:true}` at once; the lookup, the token and the mail happen afterwards, so neither
   * the answer nor its timing tells whether the account exists or is already verified.
   */
  resendVerification(email: string): { ok: true } {
    this.background.run('verification mail could not be issued', async () => {
      const user = await this.users.findByEmail(email);
      if (user && !user.emailVerifiedAt) await this.sendVerification(user);
    });
    return { ok: true };
  }

  async verify(token: string): Promise<{ ok: true }> {
    const now = this.clock.date();
    const userId = await this.tokens.consume('verify_email', sha256Hex(token), now);
    if (!userId) throw ApiError.badRequest(INVALID_TOKEN);
    await this.users.markEmailVerified(userId, now);
    return { ok: true };
  }

  /** Like `resendVerification`: answered before any account is looked up. */
  forgotPassword(email: string): { ok: true } {
    this.background.run('password reset mail could not be issued', async () => {
      const user = await this.users.findByEmail(email);
      if (!user) return;
      const token = await this.issue(user.id, 'reset_password', RESET_TOKEN_TTL_MS);
      this.mail.dispatch(passwordResetMail(user.email, this.link('/reset-password', token)));
    });
    return { ok: true };
  }

  /**
   * Sets the new password and revokes every session of the user: whoever knew the old password
   * (or stole a cookie) is signed out. The link came through the mailbox, so it also verifies it.
   */
  async resetPassword(token: string, password: string): Promise<{ ok: true }> {
    const now = this.clock.date();
    const userId = await this.tokens.consume('reset_password', sha256Hex(token), now);
    if (!userId) throw ApiError.badRequest(INVALID_TOKEN);
    await this.users.setPasswordHash(userId, await this.passwords.hash(password));
    await this.tokens.retireAll(userId, 'reset_password', now);
    await this.users.markEmailVerified(userId, now);
    await this.sessions.revokeAllForUser(userId);
    return { ok: true };
  }

  private async issue(userId: string, purpose: EmailTokenPurpose, ttlMs: number): Promise<string> {
    const token = randomToken(32);
    await this.tokens.replace(userId, purpose, sha256Hex(token), this.clock.date(), this.clock.date(ttlMs));
    return token;
  }

  private link(path: string, token: string): string {
    return `${this.config.publicUrl}${path}?token=${encodeURIComponent(token)}`;
  }
}
