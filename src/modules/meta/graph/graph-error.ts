/**
 * The Graph API's error object (`{"error": {...}}`), as it answers a refused call. Meta asks
 * integrations to branch on `code` (and `error_data.details`), never on the titles.
 */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  error_data?: { messaging_product?: string; details?: string };
  fbtrace_id?: string;
  is_transient?: boolean;
}

/** The provider fields the contract adds to errors of cloud channel routes (docs/contract.md#error-object). */
export interface ProviderFields {
  provider_code?: number;
  provider_subcode?: number;
  provider_title?: string;
}

/** Token expired, revoked or never valid: the workspace must save new settings. */
export const INVALID_TOKEN_CODE = 190;

/** The Graph API refused a call. */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: GraphErrorBody,
    /** The answer's own wait before a retry (its `Retry-After`, see `retryAfterMsOf`), when it gave one. */
    readonly retryAfterMs?: number,
  ) {
    super(providerText(body, status));
    this.name = 'GraphApiError';
  }

  get code(): number | undefined {
    return this.body.code;
  }

  /** Graph's "Object with ID … does not exist" (code 100, subcode 33). */
  get isUnknownObject(): boolean {
    return this.body.code === 100 && this.body.error_subcode === 33;
  }

  /** `provider_code`, `provider_subcode`, `provider_title`: only those the provider gave. */
  get providerFields(): ProviderFields {
    const fields: ProviderFields = {};
    if (typeof this.body.code === 'number') fields.provider_code = this.body.code;
    if (typeof this.body.error_subcode === 'number') fields.provider_subcode = this.body.error_subcode;
    if (typeof this.body.error_user_title === 'string' && this.body.error_user_title) fields.provider_title = this.body.error_user_title;
    return fields;
  }
}

/**
 * A `Retry-After` header in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or not understood, so the caller falls back to its own schedule.
 */
export function retryAfterMsOf(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The provider could not be reached, timed out, or answered something that is not the Graph API.
 * `noAnswer`: no answer at all (connection failed, timed out, broke off): the provider is down
 * for us, which routes report as 503 rather than as a refusal.
 */
export class GraphUnreachableError extends Error {
  constructor(
    reason: string,
    readonly noAnswer = false,
  ) {
    super(reason);
    this.name = 'GraphUnreachableError';
  }
}

/**
 * The provider's own words for a refusal: the text meant for people (`error_user_msg`) when it
 * gave one, else its message (`(#131030) Recipient phone number not in allowed list`).
 */
function providerText(body: GraphErrorBody, status: number): string {
  const text = (typeof body.error_user_msg === 'string' && body.error_user_msg) || (typeof body.message === 'string' && body.message);
  return text || `the provider answered HTTP ${status}`;
}
