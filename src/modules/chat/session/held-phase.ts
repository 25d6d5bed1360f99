import type { HeldState } from './session-state.js';

/**
 * The named state of a socket's holder from what it knows: connected, a pairing code or a QR code
 * waiting, backing off before a reconnect, else opening (`starting`; the status says `connecting`
 * for a number already linked or just scanned, which the holder's reader knows: scan-state.service.ts).
 */
export function heldState(facts: { connected: boolean; pairing: boolean; qr: boolean; backingOff: boolean }): HeldState {
  if (facts.connected) return 'connected';
  if (facts.pairing) return 'pairing_code';
  if (facts.qr) return 'qr';
  if (facts.backingOff) return 'reconnecting';
  return 'starting';
}

/** A holder's state with since when it holds: `since` moves only when the state changes. */
export class HeldPhase {
  private current: HeldState | null = null;
  private since = new Date();

  at(state: HeldState): { state: HeldState; since: Date } {
    if (state !== this.current) {
      this.current = state;
      this.since = new Date();
    }
    return { state, since: this.since };
  }
}
