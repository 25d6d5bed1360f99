import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../decorators/access.decorators.js';
import { CrossSiteChecked } from '../decorators/cross-site-checked.decorator.js';
import { GoogleConfirmDto } from '../dto/auth.dto.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { GOOGLE_NOT_CONFIGURED, GoogleSignInService, NO_PENDING_GOOGLE_SIGNUP } from './google-sign-in.service.js';

/** Google sign-in routes; not configured in this version (see GoogleSignInService). */
@ApiTags('auth')
@Controller('api/auth/google')
export class GoogleSignInController {
  constructor(private readonly google: GoogleSignInService) {}

  @Public()
  @RateLimit('google')
  @Get('start')
  @ApiOperation({ summary: "Redirect to Google's sign-in (302)" })
  @ApiServiceUnavailableResponse({ description: `\`${GOOGLE_NOT_CONFIGURED}\`` })
  start(): never {
    return this.google.start();
  }

  @Public()
  @Get('callback')
  @ApiOperation({ summary: "Google's redirect back after sign-in" })
  @ApiServiceUnavailableResponse({ description: `\`${GOOGLE_NOT_CONFIGURED}\`` })
  callback(): never {
    return this.google.callback();
  }

  @Public()
  @RateLimit('google')
  @Get('pending')
  @ApiOperation({ summary: 'The pending Google sign-up awaiting confirmation: `{email, name}`' })
  @ApiNotFoundResponse({ description: `\`${NO_PENDING_GOOGLE_SIGNUP}\`` })
  pending(): never {
    return this.google.pending();
  }

  @Public()
  @RateLimit('auth')
  @CrossSiteChecked()
  @Post('confirm')
  @ApiOperation({ summary: 'Confirm the pending Google sign-up (`accept_terms` must be true)' })
  @ApiNotFoundResponse({ description: `\`${NO_PENDING_GOOGLE_SIGNUP}\`` })
  confirm(@Body() _body: GoogleConfirmDto): never {
    return this.google.confirm();
  }
}
