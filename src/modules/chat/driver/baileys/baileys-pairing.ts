import { type BinaryNode, getBinaryNodeChild, getBinaryNodeChildren } from '@whiskeysockets/baileys';
import type { ScanPairingCode } from '../scan-driver.port.js';
import { type ConnectionProgress, FIRST_QR_MS, NEXT_QR_MS } from './baileys-event.dispatch.js';
import type { BaileysSocket } from './baileys-socket.types.js';

/** The registration WhatsApp offered the socket: when its `pair-device` came, with how many refs. */
export interface Registration {
  at: number;
  refs: number;
}

/**
 * Notes the socket's registration (`<iq type="set"><pair-device>`, one `<ref>` per QR code Baileys
 * will show), which bounds how long the socket waits for a scan, or for a pairing code to be
 * entered: Baileys ends it with 408 "QR refs attempts ended" once the last ref's time is up.
 * Only the first counts (the simulator's "expire now" is a second, empty one).
 */
export function watchRegistration(socket: BaileysSocket, onRegistration: (registration: Registration) => void): void {
  let seen = false;
  socket.ws?.on('CB:iq,type:set,pair-device', (stanza: BinaryNode) => {
    if (seen) return;
    seen = true;
    onRegistration({ at: Date.now(), refs: getBinaryNodeChildren(getBinaryNodeChild(stanza, 'pair-device'), 'ref').length });
  });
}

/**
 * Asks WhatsApp for a pairing code for `phone` (Baileys' `requestPairingCode`: the
 * `link_code_companion_reg` `companion_hello` stage; the phone answers with its half once the
 * person typed the code, and Baileys finishes with `companion_finish`, then pair-success comes
 * as after a scan). From here on the socket reports no QR codes. The code expires with the
 * socket's registration, by Baileys' QR timing (`FIRST_QR_MS`, then `NEXT_QR_MS` per further ref).
 */
export async function requestPairingCode(
  socket: BaileysSocket,
  progress: ConnectionProgress,
  registration: Registration | null,
  phone: string,
): Promise<ScanPairingCode> {
  if (!socket.requestPairingCode) throw new Error('this connection cannot ask for pairing codes');
  if (progress.paired) throw new Error('the number is already paired on this connection');
  if (progress.passkey) throw new Error('WhatsApp asked this connection for a passkey check');
  progress.pairingCode = true;
  const raw = await socket.requestPairingCode(phone);
  const code = /^[A-Z0-9]{8}$/i.test(raw) ? `${raw.slice(0, 4)}-${raw.slice(4)}`.toUpperCase() : raw;
  const expiresAt = registration ? new Date(registration.at + FIRST_QR_MS + NEXT_QR_MS * Math.max(0, registration.refs - 1)) : null;
  return { code, expiresAt };
}
