import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { WorkspaceService } from '../../tenants/workspaces/workspace.service.js';
import type { SessionPrincipal } from '../auth.types.js';
import type { ClientInfo } from '../decorators/client-info.decorator.js';
import type { RegisteredResponse, SignedInResponse } from '../dto/auth-responses.dto.js';
import type { LoginDto, RegisterDto } from '../dto/auth.dto.js';
import { SessionService } from '../sessions/session.service.js';
import { AccountEmailService } from './account-email.service.js';
import { toUserResponse } from './account.mapper.js';
import { PasswordHasher } from './password-hasher.js';
import { UserRepository } from './user.repository.js';

export const EMAIL_TAKEN = 'an account with this email already exists';
export const INVALID_CREDENTIALS = 'invalid email or password';

/** What a sign-in hands to the controller: the response body and the cookie token to set. */
export interface SignIn<T> {
  body: T;
  sessionToken: string;
}

@Injectable()
export class AccountService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    private readonly emails: AccountEmailService,
    private readonly workspaces: WorkspaceService,
    private readonly passwords: PasswordHasher,
  ) {}

  /** Creates the account, signs it in and mails a verification link. */
  async register(input: RegisterDto, client: ClientInfo): Promise<SignIn<RegisteredResponse>> {
    const user = await this.users.create(input.email, input.name, await this.passwords.hash(input.password));
    if (!user) throw ApiError.conflict(EMAIL_TAKEN);
    await this.emails.sendVerification(user);
    const { token } = await this.sessions.create(user.id, client);
    return { body: { user: toUserResponse(user) }, sessionToken: token };
  }

  /**
   * One error for an unknown email and a wrong password, and the same scrypt work in both cases
   * (against a dummy hash), so neither the answer nor its timing tells which accounts exist.
   */
  async login(input: LoginDto, client: ClientInfo): Promise<SignIn<SignedInResponse>> {
    const user = await this.users.findByEmail(input.email);
    const valid = await this.passwords.check(input.password, user?.passwordHash);
    if (!user || !valid) throw ApiError.unauthorized(INVALID_CREDENTIALS);
    const { token } = await this.sessions.create(user.id, client);
    return { body: { user: toUserResponse(user), workspaces: await this.workspaces.listForUser(user.id) }, sessionToken: token };
  }

  async me(session: SessionPrincipal): Promise<SignedInResponse> {
    const user = await this.users.findById(session.userId);
    // The session row cascades with the user, so this only happens in a race with a deletion.
    if (!user) throw ApiError.unauthorized();
    return { user: toUserResponse(user), workspaces: await this.workspaces.listForUser(user.id) };
  }

  async logout(session: SessionPrincipal): Promise<{ ok: true }> {
    await this.sessions.revoke(session.sessionId);
    return { ok: true };
  }
}
