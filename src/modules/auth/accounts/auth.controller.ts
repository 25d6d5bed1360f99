import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { AppConfig } from '../../../infra/config/app-config.js';
import type { SessionPrincipal } from '../auth.types.js';
import { Public, UserOnly } from '../decorators/access.decorators.js';
import { CurrentSession } from '../decorators/actor.decorator.js';
import { Client, type ClientInfo } from '../decorators/client-info.decorator.js';
import { CrossSiteChecked } from '../decorators/cross-site-checked.decorator.js';
import { ProvidersResponse, RegisteredResponse, SignedInResponse } from '../dto/auth-responses.dto.js';
import { EmailDto, LoginDto, RegisterDto, ResetPasswordDto, TokenDto } from '../dto/auth.dto.js';
import { GoogleSignInService } from '../google/google-sign-in.service.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { clearSessionCookie, writeSessionCookie } from '../sessions/session-cookie.js';
import { AccountEmailService } from './account-email.service.js';
import { AccountService } from './account.service.js';

/** The Console's own sign-in pages (docs/accounts.md). Not part of the integration API. */
@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly accounts: AccountService,
    private readonly emails: AccountEmailService,
    private readonly google: GoogleSignInService,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @RateLimit('auth')
  @CrossSiteChecked()
  @Post('register')
  @ApiOperation({ summary: 'Create an account; sets the session cookie and mails a verification link' })
  @ApiCreatedResponse({ type: RegisteredResponse })
  @ApiConflictResponse({ description: '`an account with this email already exists`' })
  async register(@Body() body: RegisterDto, @Client() client: ClientInfo, @Res({ passthrough: true }) res: Response): Promise<RegisteredResponse> {
    const signIn = await this.accounts.register(body, client);
    writeSessionCookie(res, signIn.sessionToken, this.config.secureCookies);
    return signIn.body;
  }

  @Public()
  @RateLimit('auth')
  @CrossSiteChecked()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with email and password; sets the session cookie' })
  @ApiOkResponse({ type: SignedInResponse })
  @ApiUnauthorizedResponse({ description: '`invalid email or password`' })
  async login(@Body() body: LoginDto, @Client() client: ClientInfo, @Res({ passthrough: true }) res: Response): Promise<SignedInResponse> {
    const signIn = await this.accounts.login(body, client);
    writeSessionCookie(res, signIn.sessionToken, this.config.secureCookies);
    return signIn.body;
  }

  @UserOnly()
  @Post('logout')
  @HttpCode(200)
  @ApiOperation({ summary: 'Delete this session and clear the cookie' })
  @ApiOkResponse({ type: OkResponse })
  async logout(@CurrentSession() session: SessionPrincipal, @Res({ passthrough: true }) res: Response): Promise<{ ok: true }> {
    const result = await this.accounts.logout(session);
    clearSessionCookie(res, this.config.secureCookies);
    return result;
  }

  @UserOnly()
  @Get('me')
  @ApiOperation({ summary: 'The signed-in user and their workspaces' })
  @ApiOkResponse({ type: SignedInResponse })
  me(@CurrentSession() session: SessionPrincipal): Promise<SignedInResponse> {
    return this.accounts.me(session);
  }

  @Public()
  @RateLimit('email')
  @CrossSiteChecked()
  @Post('forgot-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mail a reset link (valid 1 h); the same answer whether or not the account exists' })
  @ApiOkResponse({ type: OkResponse })
  forgotPassword(@Body() body: EmailDto): { ok: true } {
    return this.emails.forgotPassword(body.email);
  }

  @Public()
  @RateLimit('auth')
  @CrossSiteChecked()
  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Set a new password with a reset token; every session of the user is revoked' })
  @ApiOkResponse({ type: OkResponse })
  @ApiBadRequestResponse({ description: '`invalid or expired token`' })
  resetPassword(@Body() body: ResetPasswordDto): Promise<{ ok: true }> {
    return this.emails.resetPassword(body.token, body.password);
  }

  @Public()
  @RateLimit('auth')
  @CrossSiteChecked()
  @Post('verify-email')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm the email address with the token from the verification mail' })
  @ApiOkResponse({ type: OkResponse })
  @ApiBadRequestResponse({ description: '`invalid or expired token`' })
  verifyEmail(@Body() body: TokenDto): Promise<{ ok: true }> {
    return this.emails.verify(body.token);
  }

  @Public()
  @RateLimit('email')
  @CrossSiteChecked()
  @Post('resend-verification')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mail a new verification link to an unverified account; always `{ok:true}`' })
  @ApiOkResponse({ type: OkResponse })
  resendVerification(@Body() body: EmailDto): { ok: true } {
    return this.emails.resendVerification(body.email);
  }

  @Public()
  @Get('providers')
  @ApiOperation({ summary: 'Sign-in methods the Console should offer' })
  @ApiOkResponse({ type: ProvidersResponse })
  providers(): ProvidersResponse {
    return this.google.providers();
  }
}
