import type { ScanEvent } from '../driver/scan-driver.port.js';

/** What the session does when its socket closes (docs/chat.md, "Close codes"). */
export type ClosePolicy =
  { action: 'reconnect-now' } | { action: 'logged-out'; error: string } | { action: 'qr-expired' } | { action: 'stop'; error: string } | { action: 'backoff' };

/** Status `error` after the phone removed the device (WhatsApp's stream error `device_removed`). */
export const DEVICE_REMOVED_ERROR =
  'logged out from the phone (the device was removed in Linked devices): call POST /api/chat/connect to link the number again';
/** Status `error` after any other 401: a `<failure reason="401">`, at login or while connected. */
export const LOGGED_OUT_ERROR =
  'WhatsApp logged this device out (401 logged out: removed in Linked devices on the phone, or no longer known to WhatsApp): call POST /api/chat/connect to link the number again';

/**
 * The reaction to each close code (Baileys' DisconnectReason):
 * - 515 restart required: normal right after pairing; a new socket at once, not a failure;
 * - 401 logged out: the device was removed; its keys are useless, so they are deleted, and the
 *   status says why the number is no longer linked (nobody here asked for it);
 * - 403 forbidden: banned or blocked; stop but keep the keys (deleting them would lose the number
 *   for good if the block is lifted);
 * - 440 replaced: another socket uses the same keys; reconnecting would fight it forever;
 * - 408 after the last QR code: nobody scanned; a new QR only on the next connect;
 * - a number not linked yet whose socket closed before its first QR code (`unreached`: DNS,
 *   refused, TLS): WhatsApp could not be reached; stop with the reason (connect answers it) rather
 *   than retry unseen, since only the person at the Console waits for that code;
 * - the egress proxy failed (refused, down, credentials refused, could not reach WhatsApp): stop
 *   with its reason, whether linked or not; retrying through the same proxy only hides it;
 * - anything else (408 lost, 428 closed, 500 bad session, 503 unavailable, …): retry with backoff.
 * A failed auth-state write stops the session whatever the code: running on half-saved keys is
 * what corrupts sessions ("Bad MAC"). Unless the key store was merely unreachable (Postgres down
 * or restarting): that write changed nothing, the socket is already closed, and a new one reads
 * the keys as they were stored, so it backs off and reconnects once Postgres is back; the channel
 * redelivers whatever it had not been acknowledged.
 */
export function closePolicy(event: Extract<ScanEvent, { type: 'closed' }>): ClosePolicy {
  if (event.authFailure && event.storeUnavailable) return { action: 'backoff' };
  if (event.authFailure) return { action: 'stop', error: `the session's keys could not be saved, so it was stopped: ${event.reason}` };
  if (event.proxy) return { action: 'stop', error: proxyStopError(event.proxy) };
  if (event.unreached) return { action: 'stop', error: `could not reach WhatsApp: ${socketCause(event.reason)}; call POST /api/chat/connect to try again` };
  switch (event.code) {
    case 515:
      return { action: 'reconnect-now' };
    case 401:
      return { action: 'logged-out', error: event.removed ? DEVICE_REMOVED_ERROR : LOGGED_OUT_ERROR };
    case 403:
      return { action: 'stop', error: 'WhatsApp refused this number (403 forbidden): it may be banned or blocked; its link is kept' };
    case 440:
      return {
        action: 'stop',
        error: 'another connection took over this number (440 connection replaced); call POST /api/chat/connect to take it back',
      };
    case 408:
      return event.qrExpired ? { action: 'qr-expired' } : { action: 'backoff' };
    default:
      return { action: 'backoff' };
  }
}

/** Status `error` when the number's egress proxy failed: a reconnect through it would fail the same way. */
export const proxyStopError = (failure: string): string =>
  `${failure}; fix the proxy or change it (PUT /api/chat/proxy, or WA_PROXY_URL), then call POST /api/chat/connect`;

/** Baileys wraps socket errors as "WebSocket Error (<cause>)"; the cause alone reads better. */
function socketCause(reason: string): string {
  return /^WebSocket Error \((.+)\)$/s.exec(reason)?.[1] ?? reason;
}

/** Exponential backoff with "equal jitter": between half and all of min(cap, base × 2^(n-1)). */
export function reconnectDelay(failures: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
