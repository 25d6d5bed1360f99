import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { MetaSettingsResponse, PHONE_NUMBER_ID_INVALID, WABA_ID_INVALID } from '../dto/meta-settings.dto.js';
import { CODE_INVALID, MetaSignupConfigResponse, MetaSignupDto } from '../dto/meta-signup.dto.js';
import { PROVIDER_DOWN_TEXT, providerFailureText } from '../provider-errors.js';
import { NUMBER_NOT_IN_WABA, NUMBER_TAKEN } from '../settings/meta-settings.service.js';
import { MetaSignupService, SIGNUP_REJECTED, SIGNUP_UNCONFIGURED } from './meta-signup.service.js';

const UNCONFIGURED = `\`${SIGNUP_UNCONFIGURED}\`: the platform's Meta app (META_APP_ID, META_APP_SECRET, META_CONFIG_ID) is not configured`;

/** Guided number setup with Meta's Embedded Signup (docs/cloud-channel.md). Console only. */
@ApiTags('cloud channel')
@ConsoleOnly()
@Controller('api/meta/signup')
export class MetaSignupController {
  constructor(private readonly signups: MetaSignupService) {}

  @Get('config')
  @ApiOperation({ summary: "What the Console needs to open Embedded Signup: the platform's app id, configuration id and versions" })
  @ApiOkResponse({ type: MetaSignupConfigResponse })
  @ApiErrors({ 503: UNCONFIGURED })
  config(): MetaSignupConfigResponse {
    return this.signups.signupConfig();
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Finish Embedded Signup: exchanges the code for a business token, subscribes the app to the WABA, registers the number (with a new two-step PIN, kept encrypted) and saves the settings',
  })
  @ApiOkResponse({ type: MetaSettingsResponse, description: 'The saved settings' })
  @ApiErrors({
    400: [CODE_INVALID, WABA_ID_INVALID, PHONE_NUMBER_ID_INVALID, NUMBER_NOT_IN_WABA],
    409: `\`${NUMBER_TAKEN}\`: another workspace has this phone_number_id`,
    502: providerFailureText(SIGNUP_REJECTED),
    503: [UNCONFIGURED, PROVIDER_DOWN_TEXT],
  })
  signup(@Actor() actor: WorkspaceActor, @Body() dto: MetaSignupDto): Promise<MetaSettingsResponse> {
    return this.signups.signup(actor.workspaceId, dto);
  }
}
