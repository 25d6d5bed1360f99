import { ApiError } from '../../infra/http/api-error.js';
import { GraphApiError, GraphUnreachableError } from './graph/graph-error.js';

/**
 * A failed provider call on a cloud channel route: a refusal (or an answer that is not the Graph
 * API) is the contract's 502 "upstream rejected a call", `<what>: <the provider's text>` plus
 * `provider_code`, `provider_subcode`, `provider_title` when the provider gave them; no answer at
 * all (unreachable, timed out) is its 503 "a dependency is down", with the reason alone (nothing
 * was rejected). Anything that is not a provider failure is rethrown unchanged.
 */
export function providerFailure(what: string, error: unknown): ApiError {
  if (error instanceof GraphApiError) return new ApiError(502, `${what}: ${error.message}`, { ...error.providerFields });
  if (error instanceof GraphUnreachableError && error.noAnswer) return new ApiError(503, error.message);
  if (error instanceof GraphUnreachableError) return new ApiError(502, `${what}: ${error.message}`);
  throw error;
}

/** Declared texts of the 502s above (OpenAPI). */
export const providerFailureText = (what: string): string =>
  `\`${what}: <the provider's text>\` with \`provider_code\`, \`provider_subcode\`, \`provider_title\` when the provider gave them, or \`${what}: <reason>\` when it answered something that is not the Graph API`;

/** Declared text of the 503 above (OpenAPI). */
export { PROVIDER_DOWN_TEXT } from '../channels/provider-down.js';
