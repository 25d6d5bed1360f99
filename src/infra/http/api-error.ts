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
  ) {
    super({ error: text, ...extra }, status);
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
