import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import type { MetaSettingsResponse } from '../dto/meta-settings.dto.js';
import type { MetaSignupConfigResponse, MetaSignupDto } from '../dto/meta-signup.dto.js';
import { GraphApi } from '../graph/graph-api.js';
import { providerFailure } from '../provider-errors.js';
import { toMetaSettingsResponse } from '../settings/meta-settings.mapper.js';
import { MetaSettingsService } from '../settings/meta-settings.service.js';

export const SIGNUP_UNCONFIGURED = 'customer signup is awaiting platform configuration';
export const SIGNUP_REJECTED = 'provider rejected the signup';

/** The Embedded Signup version the Console opens (v2 is deprecated on 15 October 2026). */
export const SIGNUP_VERSION = 'v4';

/**
 * Embedded Signup (Tech Provider flow): the Console opens Meta's popup with the platform's app
 * and configuration, then hands the code and the ids it returned to `POST /api/meta/signup`,
 * which finishes server-to-server: code → business token, app subscribed to the WABA, number
 * registered with a fresh two-step PIN, settings saved.
 */
@Injectable()
export class MetaSignupService {
  constructor(
    private readonly config: AppConfig,
    private readonly graph: GraphApi,
    private readonly settings: MetaSettingsService,
  ) {}

  signupConfig(): MetaSignupConfigResponse {
    const { appId, configId, graphVersion } = this.platformApp();
    return { app_id: appId, config_id: configId, graph_version: graphVersion, signup_version: SIGNUP_VERSION };
  }

  async signup(workspaceId: string, dto: MetaSignupDto): Promise<MetaSettingsResponse> {
    const { appId, appSecret } = this.platformApp();
    await this.settings.ensureNumberFree(workspaceId, dto.phone_number_id);
    const pin = randomInt(0, 1_000_000).toString().padStart(6, '0');
    let token: string;
    try {
      token = await this.graph.exchangeCode(appId, appSecret, dto.code);
      await this.graph.subscribeApp(token, dto.waba_id);
      await this.graph.register(token, dto.phone_number_id, pin);
    } catch (error) {
      throw providerFailure(SIGNUP_REJECTED, error);
    }
    const number = { phoneNumberId: dto.phone_number_id, wabaId: dto.waba_id, token, pin, subscribed: true };
    return toMetaSettingsResponse(await this.settings.connect(workspaceId, number, SIGNUP_REJECTED));
  }

  /** The platform's Meta app, or 503 while any part of it is missing. */
  private platformApp(): { appId: string; appSecret: string; configId: string; graphVersion: string } {
    const { appId, appSecret, configId, graphVersion } = this.config.meta;
    if (!appId || !appSecret || !configId) throw new ApiError(503, SIGNUP_UNCONFIGURED);
    return { appId, appSecret, configId, graphVersion };
  }
}
