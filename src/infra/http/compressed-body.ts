import { ApiError } from './api-error.js';
import type { Middleware } from './deferred-input.js';

/** The 400 for a body that its `Content-Encoding` (gzip, deflate, br) does not decode. */
export const corruptCompressedBody = (encoding: string): string => `request body could not be decompressed (Content-Encoding: ${encoding})`;

/**
 * body-parser passes zlib's own error on as a bare 400 (`incorrect header check`, `unexpected end
 * of file`, `Decompression failed`): no `type`, so it was neither recognised as the client's input
 * (answered before the guards, and before the rate limiter counted it) nor given a text of ours.
 * zlib's errors are the ones with a numeric `errno` and a `code` (`Z_DATA_ERROR`, `Z_BUF_ERROR`,
 * `ERR__ERROR_FORMAT_PADDING_1`, …); they become an input refusal that names the encoding.
 */
export function nameDecompressionErrors(middleware: Middleware): Middleware {
  return (req, res, next) => {
    middleware(req, res, (error?: unknown) => {
      const failure = error as { status?: unknown; type?: unknown; errno?: unknown; code?: unknown } | undefined;
      const fromZlib = failure?.status === 400 && failure.type === undefined && typeof failure.errno === 'number' && typeof failure.code === 'string';
      if (!fromZlib) return next(error);
      const encoding = String(req.headers['content-encoding'] ?? '')
        .trim()
        .toLowerCase();
      next(ApiError.badRequest(corruptCompressedBody(encoding)));
    });
  };
}
