// WhatsApp's passkey check ("Shortcake" / CRSC linking) as a gated account meets it: once the phone
// scanned the QR code (or the code was entered), WhatsApp sends the companion
// `<notification type="passkey_prologue_request">` with WebAuthn request options (rpId
// whatsapp.com, as every capture shows) instead of pair-success; a companion that could do the
// ceremony would answer with a `passkey_prologue` iq, after which the phone's
// `<notification type="crsc_continuation">` arrives. The simulator sends both at once (it does not
// take part in a ceremony) so that a client's handling, and acknowledgement, of each shows.
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

/** `PublicKeyCredentialRequestOptionsJSON` as captured from WhatsApp (the challenge is random here). */
export const passkeyRequestOptions = (): Record<string, unknown> => ({
  challenge: randomBytes(32).toString('base64url'),
  timeout: 600_000,
  rpId: PASSKEY_RP_ID,
  allowCredentials: [],
  userVerification: 'required',
  extensions: { uvm: true },
});

export const passkeyPrologueRequest = (id: string): BinaryNode => ({
  tag: 'notification',
  attrs: { from: SERVER, type: 'passkey_prologue_request', id, t: nowSeconds() },
  content: [{ tag: 'passkey_request_options', attrs: {}, content: Buffer.from(JSON.stringify(passkeyRequestOptions())) }],
});

export const crscContinuation = (id: string): BinaryNode => ({
  tag: 'notification',
  attrs: { from: SERVER, type: 'crsc_continuation', id, t: nowSeconds() },
  content: [
    {
      tag: 'primary_ephemeral_identity',
      attrs: {},
      content: proto.PrimaryEphemeralIdentity.encode({ publicKey: Curve.generateKeyPair().public, nonce: randomBytes(32) }).finish(),
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
