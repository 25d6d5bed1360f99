/**
 * The port through which a provider (the Cloud API channel, `src/modules/meta/`) manages a
 * workspace's templates. The content module owns the table and the routes; a provider registers
 * with `TemplateProviders` from its module's `onModuleInit` (as channels register with
 * `ChannelRegistry`) and reports status and quality changes through
 * `TemplatesService.applyProviderUpdate`. Sending a provider template is the channel gateway's
 * `sendTemplate` (src/modules/channels/channel-gateway.port.ts).
 */

/** A template as the provider has it. Categories, statuses and qualities in the provider's words (upper case). */
export interface ProviderTemplate {
  /** The provider's id of the template (the Cloud API's template id). */
  providerId: string;
  name: string;
  language: string;
  category: string;
  /** The BODY component's text, with its `{{1}}`-style (or named) parameters. */
  body: string;
  status: string;
  /** null when the provider reports none yet. */
  quality: string | null;
}

/** A template to submit, as the Console creates it (category upper case, body with `{{1}}`…). */
export interface TemplateSubmission {
  name: string;
  language: string;
  category: string;
  body: string;
}

/** What a removal needs to name the template at the provider. */
export interface ProviderTemplateRef {
  providerId: string;
  name: string;
  language: string;
}

/** Fields of the contract's error object (docs/contract.md#error-object) that the provider gave, when it gave them. */
export interface ProviderErrorDetails {
  code?: number;
  subcode?: number;
  title?: string;
}

/**
 * The provider refused a template request: the API answers 502
 * `provider rejected the template request: <message>` with `provider_code`, `provider_subcode` and
 * `provider_title` (those present). `unavailable`: the provider gave no answer at all (down,
 * timed out): 503 with the message alone, as a dependency that is down (nothing was rejected).
 * Any other error a provider throws is a 500, except `ApiError`, which reaches the client as it is.
 */
export class TemplateProviderError extends Error {
  constructor(
    message: string,
    readonly details: ProviderErrorDetails = {},
    readonly unavailable = false,
  ) {
    super(message);
    this.name = 'TemplateProviderError';
  }
}

export interface TemplateProvider {
  /** Whether this provider manages the workspace's templates (a Cloud API number is configured). */
  handles(workspaceId: string): Promise<boolean>;
  /** The provider's first page of templates, at most `limit` (100 for `POST /api/templates/sync`). */
  list(workspaceId: string, limit: number): Promise<ProviderTemplate[]>;
  /** Submits a new template for review; resolves with it as the provider now has it (usually `PENDING`). */
  submit(workspaceId: string, input: TemplateSubmission): Promise<ProviderTemplate>;
  /** Deletes the template at the provider. A template the provider no longer has resolves too. */
  remove(workspaceId: string, template: ProviderTemplateRef): Promise<void>;
}
