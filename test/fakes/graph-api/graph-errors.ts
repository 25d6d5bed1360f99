/**
 * Error objects in the Graph API's shape (`{"error": {...}}`), for the fake's answers and for
 * tests that make it fail: `fake.failNext({ path: /messages$/ }, GRAPH_ERRORS.reEngagement)`.
 */
export interface FakeGraphError {
  /** HTTP status of the answer (the provider uses 400 for most refusals). Default 400. */
  status?: number;
  code: number;
  subcode?: number;
  message: string;
  type?: string;
  /** `error_user_title`, what the service reports as `provider_title`. */
  title?: string;
  /** `error_user_msg`. */
  userMessage?: string;
  /** `error_data.details`. */
  details?: string;
  transient?: boolean;
}

let trace = 0;

/** The JSON body the provider answers for `error`. */
export function graphErrorBody(error: FakeGraphError): { error: Record<string, unknown> } {
  return {
    error: {
      message: error.message,
      type: error.type ?? 'OAuthException',
      code: error.code,
      ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
      ...(error.title !== undefined ? { error_user_title: error.title } : {}),
      ...(error.userMessage !== undefined ? { error_user_msg: error.userMessage } : {}),
      ...(error.details !== undefined ? { error_data: { messaging_product: 'whatsapp', details: error.details } } : {}),
      ...(error.transient !== undefined ? { is_transient: error.transient } : {}),
      fbtrace_id: `AfakeTrace${(++trace).toString(36)}`,
    },
  };
}

/** Errors the provider really answers (codes and texts from its error reference). */
export const GRAPH_ERRORS = {
  invalidToken: { status: 401, code: 190, message: 'Invalid OAuth access token - Cannot parse access token' },
  expiredToken: {
    status: 401,
    code: 190,
    subcode: 463,
    message: 'Error validating access token: Session has expired.',
    title: 'Session expired',
    userMessage: 'Your session has expired. Please log in again.',
  },
  unknownObject: (id: string): FakeGraphError => ({
    code: 100,
    subcode: 33,
    type: 'GraphMethodException',
    message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
  }),
  invalidParameter: (details: string): FakeGraphError => ({ code: 100, message: '(#100) Invalid parameter', details }),
  notAllowedRecipient: {
    code: 131030,
    subcode: 2494010,
    message: '(#131030) Recipient phone number not in allowed list',
    title: 'Recipient not allowed',
    details: 'Recipient phone number not in allowed list: Add recipient phone number to recipient list and try again.',
  },
  reEngagement: {
    code: 131047,
    message: '(#131047) Re-engagement message',
    title: 'Re-engagement message',
    details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  rateLimited: { status: 400, code: 130429, message: '(#130429) Rate limit hit', title: 'Rate limit hit', transient: true },
  pairRateLimited: {
    code: 131056,
    message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details: 'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  undeliverable: {
    code: 131026,
    message: '(#131026) Message Undeliverable',
    title: 'Message Undeliverable',
    details: 'Message failed to send because the recipient could not be reached.',
  },
  templateParameters: {
    code: 132000,
    message: '(#132000) Number of parameters does not match the expected number of params',
    title: 'Number of parameters does not match',
    details: 'body: number of localizable_params (1) does not match the expected number of params (2)',
  },
  templateExists: {
    code: 100,
    subcode: 2388024,
    message: 'Invalid parameter',
    title: 'Message template already exists',
    userMessage: 'There is already English (US) content for this template. You can create a new template and try again.',
  },
  invalidCode: {
    code: 100,
    subcode: 36009,
    message: 'This authorization code has been used.',
    title: 'Invalid verification code format',
  },
  registrationPinMismatch: {
    code: 133005,
    message: '(#133005) Two step verification PIN Mismatch',
    title: 'Two step verification PIN Mismatch',
    details: 'Two step verification PIN is incorrect.',
  },
} as const satisfies Record<string, FakeGraphError | ((arg: string) => FakeGraphError)>;
