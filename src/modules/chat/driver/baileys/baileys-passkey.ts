import { type BinaryNode, buildAckStanza, getBinaryNodeChild, S_WHATSAPP_NET } from '@whiskeysockets/baileys';
import type { ScanEvent, ScanPasskeyOptions } from '../scan-driver.port.js';
import type { BaileysSocket } from './baileys-socket.types.js';
import type { PasskeyCompanion } from './passkey/passkey-companion.js';

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
  /** A passkey notification came (before anything else is done with it: no more QR codes from now on). */
  noticed(): void;
  /**
   * With the ceremony on (docs/passkey.md): the socket's companion, which takes both
   * notifications; the `passkey` event then carries the request options and no
   * `crsc_continuation` event is emitted (the companion reports the phone's answer itself).
   */
  companion?: PasskeyCompanion;
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
    watch.noticed();
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
    const companion = watch.companion;
    if (!companion) return watch.emit({ type: 'passkey', notification, rpId, options: options !== null });
    if (notification === 'crsc_continuation') return companion.continued(node);
    // Options missing or unreadable: ask for them (whatsmeow does the same).
    const request = options?.request ?? (await askOptions(socket).catch(() => null));
    if (request) companion.requested();
    watch.emit({ type: 'passkey', notification, rpId: request?.rpId ?? rpId, options: options !== null, ...(request ? { request } : {}) });
  }
}

async function askOptions(socket: BaileysSocket): Promise<ScanPasskeyOptions | null> {
  if (!socket.query) return null;
  const answer = await socket.query({
    tag: 'iq',
    attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'md' },
    content: [{ tag: 'passkey_request_options', attrs: {} }],
  });
  return requestOptions(answer)?.request ?? null;
}

/**
 * The WebAuthn request options the notification carries (UTF-8 JSON): their `rpId`, and the whole
 * options when they have what a browser needs (a challenge and an rpId); null without any.
 */
function requestOptions(node: BinaryNode): { rpId: string | null; request: ScanPasskeyOptions | null } | null {
  const child = getBinaryNodeChild(node, 'passkey_request_options');
  const content = child?.content;
  if (!content) return null;
  const text = typeof content === 'string' ? content : content instanceof Uint8Array ? Buffer.from(content).toString('utf8') : null;
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<ScanPasskeyOptions> | null;
    const rpId = typeof parsed?.rpId === 'string' ? parsed.rpId : null;
    const whole = rpId !== null && typeof parsed?.challenge === 'string' && parsed.challenge.length > 0;
    return { rpId, request: whole ? (parsed as ScanPasskeyOptions) : null };
  } catch {
    return { rpId: null, request: null };
  }
}
