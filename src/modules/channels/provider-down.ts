/**
 * Declared text (OpenAPI) of the 503 a route answers when a channel's provider gave no answer at
 * all (down, timed out): a dependency that is down, not a refusal. Shared by every route that
 * calls the provider (Cloud API settings, signup, templates).
 */
export const PROVIDER_DOWN_TEXT =
  '`the provider could not be reached`, `the provider did not answer in time` or `the provider connection broke off`: no answer from the provider (retry later); nothing was saved';
