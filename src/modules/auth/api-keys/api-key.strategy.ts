import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { ApiKeyPrincipal } from '../auth.types.js';
import { ApiKeyService } from './api-key.service.js';

export const API_KEY_STRATEGY = 'api-key';

/** passport-http-bearer strategy; the ApiKeyGuard only hands it exact `Bearer <key>` headers. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, API_KEY_STRATEGY) {
  constructor(private readonly apiKeys: ApiKeyService) {
    super();
  }

  async validate(token: string): Promise<ApiKeyPrincipal | false> {
    return (await this.apiKeys.authenticate(token)) ?? false;
  }
}
