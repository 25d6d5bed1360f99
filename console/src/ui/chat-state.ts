import { capitalise, ROUTE_CLAUSE } from '../api/client.js';

// The scan channel's texts come from the API, whose callers are programs: they name the route to
// call next ("call POST /api/chat/connect to try again"). A person at the Console has a button
// instead, so the Console keeps the reason and says which button to press.

/** The API's own "nothing to scan yet" and "the code expired" answers of `GET /api/chat/qr`. */
export function isConnectFirst(text: string | undefined): boolean {
  return Boolean(text?.startsWith('no QR code is waiting to be scanned'));
}

export function isQrExpired(text: string | undefined): boolean {
  return Boolean(text && /QR code expired/i.test(text));
}

/** The QR endpoint's answer between the scan and `connected`: the code was scanned, the link is being finished. */
export function isQrScanned(text: string | undefined): boolean {
  return Boolean(text && /the code was scanned/i.test(text));
}

export interface ChatReason {
  /** What happened, as a sentence, without any route. */
  reason: string;
  /** What to do about it on this page ("Press “Reconnect” to take it back."), when the API said. */
  hint: string | null;
}

/**
 * A reason from the API (status `error`, the QR's `error`, a failed connect) in the Console's
 * words; `button` is the label of the button that does what the API's route would.
 */
export function chatReason(text: string, button: string): ChatReason {
  const clause = ROUTE_CLAUSE.exec(text);
  if (!clause) return { reason: sentence(text), hint: null };
  const reason = sentence(text.slice(0, clause.index));
  // What the route was for: " to try again", " to take it back", " again for a new one", " first".
  const purpose = clause[1]!
    .trim()
    .replace(/\.$/, '')
    .replace(/^again\s+(?=\S)/i, '');
  return { reason, hint: `Press “${button}”${purpose ? ` ${purpose}` : ''}.` };
}

/** `chatReason` as one line. */
export function chatReasonText(text: string, button: string): string {
  const { reason, hint } = chatReason(text, button);
  return hint ? `${reason} ${hint}` : reason;
}

/** Capitalised, with a full stop also after a closing parenthesis (a hint or a link follows). */
function sentence(text: string): string {
  const trimmed = capitalise(text.trim());
  return trimmed.endsWith(')') ? `${trimmed}.` : trimmed;
}
