import type { HeldState, PasskeyState } from './session-state.js';

/**
 * The named state of a socket's holder from what it knows: connected, the passkey ceremony's step, a pairing code or a QR code
 * waiting, backing off before a reconnect, else opening (`starting`; the status says `connecting`
 * for a number already linked or just scanned, which the holder's reader knows: scan-state.service.ts).
 */
export function heldState(facts: {
  connected: boolean;
  pairing: boolean;
  qr: boolean;
  backingOff: boolean;
  /** The passkey ceremony's state (`confirmed`: WhatsApp pairs the device now). */
  passkey?: PasskeyState | 'confirmed' | null;
}): HeldState {
  if (facts.connected) return 'connected';
  if (facts.passkey === 'confirmed') return 'connecting';
  if (facts.passkey) return facts.passkey;
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
