import { ApiError } from '../../infra/http/api-error.js';
import { GraphApiError, GraphUnreachableError } from './graph/graph-error.js';

/**
 * A failed provider call on a cloud channel route as the contract's 502: `<what>: <the provider's
 * text>` plus `provider_code`, `provider_subcode`, `provider_title` when the provider gave them.
 * Anything that is not a provider failure is rethrown unchanged.
 */
export function providerFailure(what: string, error: unknown): ApiError {
  if (error instanceof GraphApiError) return new ApiError(502, `${what}: ${error.message}`, { ...error.providerFields });
  if (error instanceof GraphUnreachableError) return new ApiError(502, `${what}: ${error.message}`);
  throw error;
}

/** Declared texts of the 502s above (OpenAPI). */
export const providerFailureText = (what: string): string =>
  `\`${what}: <the provider's text>\` with \`provider_code\`, \`provider_subcode\`, \`provider_title\` when the provider gave them, or \`${what}: the provider could not be reached\``;
