import { proxyFailureOf } from '../../../../infra/net/proxy-tunnel.js';
import type { ScanEvent } from '../scan-driver.port.js';
import type { ConnectionProgress } from './baileys-event.dispatch.js';

/** Baileys' code for a connection lost or closed (also what `sendMessage` throws on a closed socket). */
export const LOST_OR_CLOSED = 428;
const QR_EXHAUSTED = 'QR refs attempts ended';
// How Baileys words an error of the WebSocket itself (DNS, refused, TLS): WhatsApp never answered.
const SOCKET_ERROR = 'WebSocket Error (';
// The stream error WhatsApp sends when the phone removes the device in Linked devices. Baileys
// maps a `conflict` without a code attribute to 440 (replaced); with WhatsApp's `code="401"` to 401.
const DEVICE_REMOVED = 'device_removed';

/** The status code of a Baileys (Boom) error. */
export const statusCodeOf = (error: unknown): number | undefined =>
  (error as { output?: { statusCode?: unknown } } | undefined)?.output?.statusCode as number | undefined;

/** Baileys ends on a stream error with `data`: its first child (`<conflict type="device_removed"/>`). */
function deviceRemoved(error: unknown): boolean {
  const data = (error as { data?: { tag?: unknown; attrs?: { type?: unknown } } } | undefined)?.data;
  return data?.tag === 'conflict' && data.attrs?.type === DEVICE_REMOVED;
}

export type ClosedEvent = Extract<ScanEvent, { type: 'closed' }>;

/** What is known of a socket once every write it started has settled. */
export interface CloseFacts {
  /** What Baileys ended with (`lastDisconnect.error`). */
  error: Error | undefined;
  /** The auth-state write that failed and ended the socket, if one did. */
  authFailure: string | null;
  /** That write failed because the key store was unreachable (nothing was written). */
  storeUnavailable: boolean;
  progress: ConnectionProgress;
  /** The creds name a linked number (`me`). */
  linked: boolean;
}

/** A socket's end as our `closed` event: its code, its reason, and what kind of end it was. */
export function closedEvent({ error, authFailure: failure, storeUnavailable, progress, linked }: CloseFacts): ClosedEvent {
  const removed = failure === null && deviceRemoved(error);
  const code = failure !== null ? 500 : removed ? 401 : (statusCodeOf(error) ?? LOST_OR_CLOSED);
  const reason = failure !== null ? `auth state could not be saved: ${failure}` : (error?.message ?? 'connection closed');
  // Expired only once a code was shown: a 408 (or a socket error) before the first QR is a
  // socket that never reached WhatsApp (DNS, refused, TLS, handshake timed out). Stream
  // errors and hang-ups (428) came from a reachable channel and keep their backoff.
  const qrExpired = failure === null && !progress.paired && code === 408 && (reason.includes(QR_EXHAUSTED) || (!linked && progress.qrShown));
  const unreached = failure === null && !linked && !progress.qrShown && (code === 408 || reason.startsWith(SOCKET_ERROR));
  // The WebSocket's error is the tunnel's (Baileys keeps it as the Boom's `data`): the proxy failed, not WhatsApp.
  const proxy = failure === null ? proxyFailureOf(error) : null;
  return {
    type: 'closed',
    code,
    reason,
    qrExpired,
    authFailure: failure !== null,
    ...(failure !== null && storeUnavailable ? { storeUnavailable: true as const } : {}),
    ...(unreached ? { unreached: true as const } : {}),
    ...(removed ? { removed: true as const } : {}),
    ...(proxy !== null ? { proxy } : {}),
  };
}
