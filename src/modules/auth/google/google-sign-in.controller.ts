import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiErrors } from '../../../infra/http/openapi.js';
import { EMAIL_TAKEN } from '../accounts/account.service.js';
import { Public } from '../decorators/access.decorators.js';
import { Client, type ClientInfo } from '../decorators/client-info.decorator.js';
import { CrossSiteChecked } from '../decorators/cross-site-checked.decorator.js';
import { GooglePendingResponse, RegisteredResponse } from '../dto/auth-responses.dto.js';
import { GoogleConfirmDto } from '../dto/auth.dto.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { writeSessionCookie } from '../sessions/session-cookie.js';
import { FLOW_COOKIE, PENDING_COOKIE, clearPendingCookie, readCookie, writeCallbackCookies, writeFlowCookie } from './google-cookies.js';
import { GOOGLE_FAILURE_REASONS } from './google-redirects.js';
import { GOOGLE_NOT_CONFIGURED, GOOGLE_UNAVAILABLE, GoogleSignInService } from './google-sign-in.service.js';
import {
  ACCOUNT_EMAIL_UNVERIFIED,
  GOOGLE_EMAIL_UNVERIFIED,
  GOOGLE_SIGNUP_EXPIRED,
  GoogleSignupService,
  LINKED_TO_OTHER_GOOGLE_ACCOUNT,
  NO_PENDING_GOOGLE_SIGNUP,
} from './google-signup.service.js';

const NO_PENDING = [NO_PENDING_GOOGLE_SIGNUP, GOOGLE_SIGNUP_EXPIRED];
const REASONS = GOOGLE_FAILURE_REASONS.map((reason) => `\`${reason}\``).join(', ');
const location = (description: string) => ({ Location: { description, schema: { type: 'string' } } });

/** Sign in with Google (docs/accounts.md, "Google sign-in"): browser redirects plus the Console's confirm page API. */
@ApiTags('auth')
@Controller('api/auth/google')
export class GoogleSignInController {
  constructor(
    private readonly signIn: GoogleSignInService,
    private readonly signup: GoogleSignupService,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @RateLimit('google')
  @Get('start')
  @ApiOperation({ summary: 'Redirect to Google\'s sign-in (a browser navigation: the Console\'s "Continue with Google" link)' })
  @ApiFoundResponse({
    description: "To Google's authorization endpoint (state, nonce, PKCE); sets the short-lived `svc_google_flow` cookie",
    headers: location("Google's authorization URL"),
  })
  @ApiErrors({ 503: [GOOGLE_NOT_CONFIGURED, GOOGLE_UNAVAILABLE] })
  async start(@Res() res: Response): Promise<void> {
    const { location, flowCookie } = await this.signIn.start();
    writeFlowCookie(res, flowCookie, this.config.secureCookies);
    res.redirect(302, location);
  }

  @Public()
  @Get('callback')
  @ApiOperation({ summary: "Google's redirect back: signs in, or parks a pending sign-up for the Console's confirm page" })
  @ApiFoundResponse({
    description:
      'To `/` signed in (`svc_session` set) when the Google account is linked; to `/signup/google` (`svc_google_pending` set) when it is not; ' +
      `to \`/login?error=google&reason=<code>\` on any failure, with reason one of ${REASONS}`,
    headers: location('A Console page on this origin: `/`, `/signup/google` or `/login?error=google&reason=<code>`'),
  })
  @ApiQuery({ name: 'code', required: false, schema: { type: 'string' }, description: 'The authorization code (from Google)' })
  @ApiQuery({ name: 'state', required: false, schema: { type: 'string' }, description: 'Must match the attempt in `svc_google_flow`' })
  @ApiQuery({ name: 'error', required: false, schema: { type: 'string' }, description: '`access_denied` when the person cancelled, or another OAuth error' })
  async callback(@Req() req: Request, @Client() client: ClientInfo, @Res() res: Response): Promise<void> {
    const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    const outcome = await this.signIn.callback(req.query, readCookie(req, FLOW_COOKIE), search, client);
    writeCallbackCookies(res, outcome, this.config.secureCookies);
    res.redirect(302, outcome.location);
  }

  @Public()
  @RateLimit('google')
  @Get('pending')
  @ApiOperation({ summary: 'The pending Google sign-up of this browser (`svc_google_pending` cookie), for the confirm page' })
  @ApiOkResponse({ type: GooglePendingResponse })
  @ApiErrors({ 404: NO_PENDING })
  pending(@Req() req: Request): Promise<GooglePendingResponse> {
    return this.signup.show(readCookie(req, PENDING_COOKIE));
  }

  @Public()
  @RateLimit('auth')
  @CrossSiteChecked()
  @Post('confirm')
  @HttpCode(201)
  @ApiOperation({ summary: 'Accept the terms: creates the account (or links the existing one with the same verified email) and signs in' })
  @ApiCreatedResponse({ type: RegisteredResponse, description: 'Signed in: `svc_session` set, `svc_google_pending` cleared' })
  @ApiErrors({
    404: NO_PENDING,
    409: [GOOGLE_EMAIL_UNVERIFIED, ACCOUNT_EMAIL_UNVERIFIED, LINKED_TO_OTHER_GOOGLE_ACCOUNT, EMAIL_TAKEN],
  })
  async confirm(
    @Body() _body: GoogleConfirmDto,
    @Req() req: Request,
    @Client() client: ClientInfo,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RegisteredResponse> {
    const signIn = await this.signup.confirm(readCookie(req, PENDING_COOKIE), client);
    writeSessionCookie(res, signIn.sessionToken, this.config.secureCookies);
    clearPendingCookie(res, this.config.secureCookies);
    return signIn.body;
  }
}
