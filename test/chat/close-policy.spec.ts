import { describe, expect, it } from '@jest/globals';
import { closePolicy, reconnectDelay } from '../../src/modules/chat/session/close-policy.js';

const closed = (code: number, flags: { qrExpired?: boolean; authFailure?: boolean; storeUnavailable?: true; unreached?: true; reason?: string } = {}) =>
  ({
    type: 'closed',
    code,
    reason: flags.reason ?? 'r',
    qrExpired: flags.qrExpired ?? false,
    authFailure: flags.authFailure ?? false,
    storeUnavailable: flags.storeUnavailable,
    unreached: flags.unreached,
  }) as const;

describe('close-code policy', () => {
  it('maps each close code to its reaction', () => {
    expect(closePolicy(closed(515)).action).toBe('reconnect-now');
    expect(closePolicy(closed(401)).action).toBe('logged-out');
    expect(closePolicy(closed(403)).action).toBe('stop');
    expect(closePolicy(closed(440)).action).toBe('stop');
    expect(closePolicy(closed(408, { qrExpired: true })).action).toBe('qr-expired');
    for (const code of [408, 411, 428, 500, 503, 599]) expect(closePolicy(closed(code)).action).toBe('backoff');
    // A failed key write stops whatever the code, 515 included.
    expect(closePolicy(closed(515, { authFailure: true })).action).toBe('stop');
    // ...unless the key store was only unreachable (nothing written): reconnect once it is back.
    expect(closePolicy(closed(500, { authFailure: true, storeUnavailable: true })).action).toBe('backoff');
  });

  it('stops a socket that never reached WhatsApp with the socket error as the reason', () => {
    expect(closePolicy(closed(408, { unreached: true, reason: 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)' }))).toEqual({
      action: 'stop',
      error: 'could not reach WhatsApp: getaddrinfo ENOTFOUND web.whatsapp.com; call POST /api/chat/connect to try again',
    });
    expect(closePolicy(closed(428, { unreached: true, reason: 'Connection Closed' }))).toEqual({
      action: 'stop',
      error: 'could not reach WhatsApp: Connection Closed; call POST /api/chat/connect to try again',
    });
  });

  it('backs off exponentially, with jitter between half and all of the delay, up to the cap', () => {
    expect(reconnectDelay(1, 1000, 60_000, () => 0)).toBe(500);
    expect(reconnectDelay(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(reconnectDelay(4, 1000, 60_000, () => 1)).toBe(8000);
    expect(reconnectDelay(4, 1000, 60_000, () => 0)).toBe(4000);
    expect(reconnectDelay(30, 1000, 60_000, () => 1)).toBe(60_000);
    expect(reconnectDelay(5000, 1000, 60_000, () => 0.5)).toBe(45_000);
  });
});
