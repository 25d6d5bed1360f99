import { type BinaryNode, buildAckStanza, getBinaryNodeChild, S_WHATSAPP_NET } from '@whiskeysockets/baileys';
import type { ScanEvent } from '../scan-driver.port.js';
import type { BaileysSocket } from './baileys-socket.types.js';

// The server's own jid as its stanzas name it (Baileys' S_WHATSAPP_NET carries a leading `@`).
const SERVER = S_WHATSAPP_NET.replace(/^@/, '');

/** WhatsApp's passkey check (its "Shortcake" / CRSC linking): what it sends instead of pair-success. */
export const PASSKEY_NOTIFICATIONS = ['passkey_prologue_request', 'crsc_continuation'] as const;
type PasskeyNotification = (typeof PASSKEY_NOTIFICATIONS)[number];

export interface PasskeyWatch {
  /** Whether the creds name an account yet (Baileys' own ack needs `creds.me`). */
  hasMe(): boolean;
  emit(event: Extract<ScanEvent, { type: 'passkey' }>): void;
  /** Logs what happened (never the WebAuthn challenge). */
  log(line: { notification: string; acked: boolean; rpId: string | null }): void;
  warn(error: unknown, what: string): void;
}

/**
 * Watches a socket for WhatsApp's passkey check (`<notification type="passkey_prologue_request">`,
 * later `crsc_continuation`), which gated accounts get after the phone scanned the QR code or
 * entered the pairing code, instead of `pair-success`. Baileys 7.0.0-rc14 has no handling for
 * either; it does try to acknowledge every notification, but builds that ack from `creds.me.id`,
 * which is unset during QR linking, so it throws ("failed to ack notification") and WhatsApp never
 * hears back. The driver therefore sends the ack itself exactly when Baileys' fails: no `creds.me`
 * (QR linking). On the pairing-code path `creds.me` is the number asked for, Baileys' ack works,
 * and a second one is not sent. test/whatsapp-sim/passkey-acks.spec.ts fails when a Baileys upgrade
 * changes either half (then revisit this file).
 *
 * Uses Baileys' public primitives only: `ws.on('CB:notification,type:…')` and `sendNode`.
 */
export function watchPasskeyGate(socket: BaileysSocket, watch: PasskeyWatch): void {
  const { ws, sendNode } = socket;
  if (!ws || !sendNode) return;
  for (const type of PASSKEY_NOTIFICATIONS) {
    ws.on(`CB:notification,type:${type}`, (node: BinaryNode) => void handle(node, type));
  }

  async function handle(node: BinaryNode, notification: PasskeyNotification): Promise<void> {
    // Only WhatsApp's server asks for a passkey (as whatsmeow checks too).
    if (node.attrs.from !== SERVER) return;
    const acked = !watch.hasMe();
    const options = notification === 'passkey_prologue_request' ? requestOptions(node) : null;
    const rpId = options?.rpId ?? null;
    watch.log({ notification, acked, rpId });
    // The ack first: the session ends the socket as soon as it hears of the check.
    if (acked) {
      try {
        await sendNode!(buildAckStanza(node, undefined, undefined));
      } catch (error) {
        watch.warn(error, `the ${notification} notification could not be acknowledged`);
      }
    }
    watch.emit({ type: 'passkey', notification, rpId, options: options !== null });
  }
}

/** The `rpId` of the WebAuthn request options the notification carries (UTF-8 JSON), or null. */
function requestOptions(node: BinaryNode): { rpId: string | null } | null {
  const child = getBinaryNodeChild(node, 'passkey_request_options');
  const content = child?.content;
  if (!content) return null;
  const text = typeof content === 'string' ? content : content instanceof Uint8Array ? Buffer.from(content).toString('utf8') : null;
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as { rpId?: unknown };
    return { rpId: typeof parsed.rpId === 'string' ? parsed.rpId : null };
  } catch {
    return { rpId: null };
  }
}
