import { HttpException } from '@nestjs/common';

/** Extra top-level fields an error body may carry (the contract's error object, docs/contract.md#error-object). */
export type ApiErrorExtra = Record<string, unknown> & { code?: string };

/**
 * An error with exactly the contract's body: `{"error": "<text>", "code"?: "...", ...extra}`.
 * Throw it from services; the global filter sends the body unchanged.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly text: string,
    readonly extra: ApiErrorExtra = {},
    /** Headers of the answer (a 429's `Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super({ error: text, ...extra }, status);
  }

  /** 429 with `Retry-After` (whole seconds, at least 1). */
  static tooMany(text: string, retryAfterMs: number, extra?: ApiErrorExtra): ApiError {
    return new ApiError(429, text, extra, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
  }

  static badRequest(text: string, extra?: ApiErrorExtra): ApiError {
    return new ApiError(400, text, extra);
  }

  static unauthorized(text = 'unauthorized'): ApiError {
    return new ApiError(401, text);
  }

  static forbidden(text = 'forbidden'): ApiError {
    return new ApiError(403, text);
  }

  static notFound(text = 'not found', extra?: ApiErrorExtra): ApiError {
    return new ApiError(404, text, extra);
  }

  static conflict(text: string, extra?: ApiErrorExtra): ApiError {
    return new ApiError(409, text, extra);
  }
}
