import { Injectable } from '@nestjs/common';
import { Strategy, type VerifyFunction } from 'passport-http-bearer';
import type { ApiKeyPrincipal } from '../auth.types.js';
import { ApiKeyService } from './api-key.service.js';

type Verified = (error: unknown, principal?: ApiKeyPrincipal | false) => void;

/**
 * passport-http-bearer with the service's key check; the ApiKeyGuard only hands it exact
 * `Bearer <key>` headers. A key cached under the trusted generation is verified on the spot
 * (passport then calls back before `authenticate` returns), others after the lookup.
 */
@Injectable()
export class ApiKeyStrategy extends Strategy<VerifyFunction> {
  constructor(apiKeys: ApiKeyService) {
    super((token: string, done: Verified) => {
      const cached = apiKeys.authenticateFromCache(token);
      if (cached) return done(null, cached);
      apiKeys.authenticate(token).then((principal) => done(null, principal ?? false), done);
    });
  }
}
