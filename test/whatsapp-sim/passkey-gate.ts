// WhatsApp's passkey check ("Shortcake" / CRSC linking) as a gated account meets it: once the phone
// scanned the QR code (or the code was entered), WhatsApp sends the companion
// `<notification type="passkey_prologue_request">` with WebAuthn request options (rpId
// whatsapp.com, as every capture shows) instead of pair-success; a companion that can do the
// ceremony answers with a `passkey_prologue` iq, after which the phone's
// `<notification type="crsc_continuation">` arrives. For an account without a registered passkey
// the simulator sends both at once (it takes no part in a ceremony) so that a client's handling,
// and acknowledgement, of each shows; with one, passkey-ceremony.ts plays the whole ceremony.
import { Curve, proto, type BinaryNode } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import { nowSeconds, SERVER } from './stanzas.js';

export const PASSKEY_RP_ID = 'whatsapp.com';

/** The two notifications, in the order WhatsApp sends them. */
export const PASSKEY_NOTIFICATION_TYPES = ['passkey_prologue_request', 'crsc_continuation'] as const;

/** The phone could not link: the account is gated behind WhatsApp's passkey check. */
export class PasskeyRequiredError extends Error {
  constructor(readonly phone: string) {
    super(`${phone} is a gated account: WhatsApp asked the linking device for a passkey check instead of pairing it`);
    this.name = 'PasskeyRequiredError';
  }
}

/** How long WhatsApp's request options give the ceremony (their `timeout`, as captured). */
export const PASSKEY_TIMEOUT_MS = 600_000;

/** `PublicKeyCredentialRequestOptionsJSON` as captured from WhatsApp (the challenge is random here). */
export const passkeyRequestOptions = (challenge = randomBytes(32).toString('base64url'), timeout = PASSKEY_TIMEOUT_MS): Record<string, unknown> => ({
  challenge,
  timeout,
  rpId: PASSKEY_RP_ID,
  allowCredentials: [],
  userVerification: 'required',
  extensions: { uvm: true },
});

/** The options as the notification (and the `passkey_request_options` iq answer) carry them: UTF-8 JSON. */
export const passkeyOptionsNode = (options: Record<string, unknown>): BinaryNode => ({
  tag: 'passkey_request_options',
  attrs: {},
  content: Buffer.from(JSON.stringify(options)),
});

export const passkeyPrologueRequest = (id: string, options = passkeyRequestOptions()): BinaryNode => ({
  tag: 'notification',
  attrs: { from: SERVER, type: 'passkey_prologue_request', id, t: nowSeconds() },
  content: [passkeyOptionsNode(options)],
});

/** The phone's answer to an accepted prologue: its ephemeral X25519 key and nonce (random ones for a gated account). */
export const crscContinuation = (
  id: string,
  identity: { publicKey: Uint8Array; nonce: Uint8Array } = { publicKey: Curve.generateKeyPair().public, nonce: randomBytes(32) },
): BinaryNode => ({
  tag: 'notification',
  attrs: { from: SERVER, type: 'crsc_continuation', id, t: nowSeconds() },
  content: [
    {
      tag: 'primary_ephemeral_identity',
      attrs: {},
      content: proto.PrimaryEphemeralIdentity.encode(identity).finish(),
    },
  ],
});

/** An acknowledgement a client sent for a notification (`<ack class="notification">`). */
export interface NotificationAck {
  /** The notification's id and type, as the ack names them. */
  id: string;
  type: string | undefined;
  at: number;
}
