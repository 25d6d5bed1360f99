import { Body, Controller, Delete, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../infra/http/openapi.js';
import { OkResponse } from '../../../infra/http/ok.response.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConsoleOnly, SubscriptionExempt } from '../../auth/decorators/access.decorators.js';
import { Actor } from '../../auth/decorators/actor.decorator.js';
import { ACCESS_TOKEN_INVALID, MetaSettingsResponse, PHONE_NUMBER_ID_INVALID, PutMetaSettingsDto, WABA_ID_INVALID } from '../dto/meta-settings.dto.js';
import { PROVIDER_DOWN_TEXT, providerFailureText } from '../provider-errors.js';
import { MetaSettingsService, NUMBER_NOT_IN_WABA, NUMBER_TAKEN, SETTINGS_NOT_FOUND, SETTINGS_REJECTED, TOKEN_REQUIRED } from './meta-settings.service.js';

/** The workspace's Cloud API number (docs/cloud-channel.md). Console only. */
@ApiTags('cloud channel')
@ConsoleOnly()
@Controller('api/meta/settings')
export class MetaSettingsController {
  constructor(private readonly settings: MetaSettingsService) {}

  @Get()
  @ApiOperation({ summary: "The workspace's Cloud API number; the token is never returned (`token_set`)" })
  @ApiOkResponse({ type: MetaSettingsResponse, description: 'Without a number: `phone_number_id` and `waba_id` null, `connected` and `token_set` false' })
  get(@Actor() actor: WorkspaceActor): Promise<MetaSettingsResponse> {
    return this.settings.get(actor.workspaceId);
  }

  @Put()
  @ApiOperation({
    summary:
      "Connect (or change) the workspace's Cloud API number. Checked with the provider before saving: the token reads the number, the number belongs to the WABA, and the platform's app is subscribed to the WABA's webhooks",
  })
  @ApiOkResponse({ type: MetaSettingsResponse })
  @ApiErrors({
    400: [PHONE_NUMBER_ID_INVALID, WABA_ID_INVALID, ACCESS_TOKEN_INVALID, TOKEN_REQUIRED, NUMBER_NOT_IN_WABA],
    409: `\`${NUMBER_TAKEN}\`: another workspace has this phone_number_id`,
    502: providerFailureText(SETTINGS_REJECTED),
    503: PROVIDER_DOWN_TEXT,
  })
  put(@Actor() actor: WorkspaceActor, @Body() dto: PutMetaSettingsDto): Promise<MetaSettingsResponse> {
    return this.settings.put(actor.workspaceId, dto);
  }

  // Unlinking stays possible without a subscription, as for the scan channel.
  @Delete()
  @SubscriptionExempt()
  @ApiOperation({ summary: 'Disconnect the number from this workspace (the app stays subscribed to the WABA at the provider)' })
  @ApiOkResponse({ type: OkResponse })
  @ApiErrors({ 404: SETTINGS_NOT_FOUND })
  async remove(@Actor() actor: WorkspaceActor): Promise<OkResponse> {
    await this.settings.remove(actor.workspaceId);
    return { ok: true };
  }
}
