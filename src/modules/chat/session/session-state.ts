/**
 * The named state of a scan session (`state` of `GET /api/chat/status`, docs/chat.md#states),
 * beside the contract's flags (`connected`, `logged_in`, `qr_pending`), which keep their meaning.
 */
export const SESSION_STATES = [
  'stopped',
  'starting',
  'qr',
  'pairing_code',
  'passkey_required',
  'passkey_assertion',
  'passkey_confirmation',
  'connecting',
  'connected',
  'reconnecting',
  'logged_out',
  'failed',
] as const;
export type SessionStateName = (typeof SESSION_STATES)[number];

/**
 * The states a session is left in when no worker holds a socket for it (the durable row's
 * `state`): stopped on purpose or after its QR codes ran out, unlinked by the phone, stopped on
 * an error, or refused by WhatsApp's passkey gate.
 */
export const RESTING_STATES = ['stopped', 'logged_out', 'failed', 'passkey_required'] as const satisfies readonly SessionStateName[];
export type RestingState = (typeof RESTING_STATES)[number];

/** What the worker holding the socket reports (the live half, Redis). */
export type HeldState = 'starting' | 'qr' | 'pairing_code' | 'connecting' | 'connected' | 'reconnecting' | PasskeyState;

/** The passkey ceremony's states (CHAT_PASSKEY_CEREMONY, docs/passkey.md), held while a person acts. */
export const PASSKEY_STATES = ['passkey_required', 'passkey_assertion', 'passkey_confirmation'] as const;
export type PasskeyState = (typeof PASSKEY_STATES)[number];

/** What the durable row may say: how it rests, or (while wanted) that it was started or connected. */
export type RowState = RestingState | 'starting' | 'connected';

export const isResting = (state: string): state is RestingState => (RESTING_STATES as readonly string[]).includes(state);

/**
 * Status `error` (and the QR endpoint's text) when WhatsApp answered a scan or an entered pairing
 * code with its passkey check (`passkey_prologue_request`) instead of pairing. Nothing here can do
 * that check (it needs the account's passkey in a browser on WhatsApp's own site), so the session
 * stops, keeps no keys, and says what the person can do.
 */
export const PASSKEY_REQUIRED_ERROR =
  'WhatsApp asks for a passkey check before this number can link a new device (the phone shows "Continue on WhatsApp Web" or ' +
  '"Create a passkey to log in"). That check needs the passkey of the account in a desktop browser on WhatsApp\'s own site, which ' +
  'this service does not offer yet, so nothing was linked. Connect the number through the WhatsApp Cloud API instead (Settings → ' +
  'Cloud API; WhatsApp Business app numbers can keep their app), or try again later: call POST /api/chat/connect';

/** Status `error` when a pairing code was not entered on the phone before the channel's time for it ran out. */
export const PAIRING_CODE_EXPIRED_ERROR = 'the pairing code expired before it was entered on the phone: call POST /api/chat/pairing-code for a new one';

/** Status `error` when the connection that asked for a pairing code closed before the phone used it. */
export const pairingCodeLostError = (cause: string): string =>
  `the connection that asked for the pairing code closed before the code was entered (${cause}): call POST /api/chat/pairing-code for a new one`;

/** What a person does in each of the ceremony's states (status `passkey.explanation`, and `error`). */
export function passkeyExplanation(state: PasskeyState, code: string | null): string {
  switch (state) {
    case 'passkey_required':
      return (
        'WhatsApp asks for a passkey check before this number can link (the phone shows "Continue on WhatsApp Web"). In the Console, ' +
        'click "Open WhatsApp Web" (POST /api/chat/passkey/link gives the one-time link) in a desktop browser with the passkey extension, ' +
        "and approve with the account's passkey"
      );
    case 'passkey_assertion':
      return (
        "The browser has WhatsApp's passkey challenge: approve there with the account's passkey (a synced passkey, or the phone " +
        'through "use a phone"); the phone answers next'
      );
    case 'passkey_confirmation':
      return (
        `The phone shows a code: if it is ${code ?? '(unknown)'}, confirm it (POST /api/chat/passkey/confirm) and the number links; ` +
        'if it is another code, do not confirm: stop the session (POST /api/chat/stop)'
      );
  }
}

const TRY_AGAIN = 'nothing was linked: call POST /api/chat/connect to try again';

/** Status `error` when WhatsApp refused the assertion or a later step of the ceremony. */
export const passkeyRefusedError = (why: string): string => `WhatsApp did not finish the passkey check (${why}), so ${TRY_AGAIN}`;

/** Status `error` when the code confirmed is not the one the phone and this service derived. */
export const PASSKEY_CODE_MISMATCH_ERROR =
  'the code given does not match the one derived for this link (another code on the phone means the link is not safe), so ' + TRY_AGAIN;

/** Status `error` when the ceremony did not finish within CHAT_PASSKEY_TIMEOUT_MS. */
export const PASSKEY_TIMEOUT_ERROR = `the passkey check was not finished in time, so ${TRY_AGAIN}`;

/** Status `error` when the connection closed in the middle of the ceremony. */
export const passkeyLostError = (cause: string): string => `the connection closed during the passkey check (${cause}), so ${TRY_AGAIN}`;
