import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { ProvidersResponse } from '../dto/auth-responses.dto.js';

export const GOOGLE_NOT_CONFIGURED = 'Google sign-in is not configured';
export const NO_PENDING_GOOGLE_SIGNUP = 'no pending Google sign-up';

/**
 * Google sign-in is a later issue. Until it lands there is no GOOGLE_CLIENT_ID to read, so this
 * service answers what is true of a service without Google configured: providers says so, the
 * flow's entry points answer 503, and there is never a pending sign-up. The routes exist now so
 * that their rate limits (interface.md section 8) are real and tested.
 */
@Injectable()
export class GoogleSignInService {
  private readonly configured = false;

  providers(): ProvidersResponse {
    return { password: true, google: this.configured };
  }

  start(): never {
    throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
  }

  callback(): never {
    throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
  }

  /** The pending sign-up lives in a signed cookie set by the callback; none can exist yet. */
  pending(): never {
    throw ApiError.notFound(NO_PENDING_GOOGLE_SIGNUP);
  }

  confirm(): never {
    throw ApiError.notFound(NO_PENDING_GOOGLE_SIGNUP);
  }
}
