import { ScanLookupTimeoutError } from '../../session/scan-sessions.port.js';
import type { ScanNumberLookup, ScanPresence } from '../scan-driver.port.js';
import type { BaileysSocket } from './baileys-socket.types.js';

// WhatsApp answers a usync in well under a second; a socket that says nothing for this long is
// stuck (a half-open connection), and the caller is told so instead of waiting for the socket's end.
export const LOOKUP_TIMEOUT_MS = 10_000;

/** A chat state to `jid` (Baileys sends `<chatstate>`; recording is composing with `media="audio"`). */
export async function sendPresence(socket: BaileysSocket, jid: string, state: ScanPresence): Promise<void> {
  if (!socket.sendPresenceUpdate) throw new Error('this socket cannot send chat states');
  await socket.sendPresenceUpdate(state, jid);
}

/**
 * Asks WhatsApp which phones (digits) have an account: one usync with the contact protocol.
 * Baileys' `onWhatsApp` leaves out the numbers WhatsApp answers `out` for (not on WhatsApp), so a
 * phone absent from the answer does not exist. An answer is matched to its phone by the jid's
 * digits; WhatsApp may answer a single number with a jid spelled otherwise (a country's mobile
 * prefix added or dropped), which is then that number's.
 */
export async function lookupNumbers(socket: BaileysSocket, phones: readonly string[]): Promise<ScanNumberLookup[]> {
  if (phones.length === 0) return [];
  if (!socket.onWhatsApp) throw new Error('this socket cannot check numbers');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ScanLookupTimeoutError()), LOOKUP_TIMEOUT_MS);
  });
  const answers = await Promise.race([socket.onWhatsApp(...phones.map((phone) => `${phone}@s.whatsapp.net`)), timeout]).finally(() => clearTimeout(timer));
  const found = (answers ?? []).filter((answer) => answer.exists);
  const byDigits = new Map(found.map((answer) => [answer.jid.split('@')[0]!.split(':')[0]!, answer.jid]));
  return phones.map((phone) => {
    const jid = byDigits.get(phone) ?? (phones.length === 1 ? found[0]?.jid : undefined) ?? null;
    return { phone, exists: jid !== null, jid };
  });
}
