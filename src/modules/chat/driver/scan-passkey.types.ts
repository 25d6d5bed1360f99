// The passkey ceremony's shapes as they cross the port (docs/passkey.md): WebAuthn's JSON forms,
// never a Baileys type.

/** `PublicKeyCredentialRequestOptionsJSON` as WhatsApp sends it (`challenge` unpadded base64url). */
export interface ScanPasskeyOptions {
  challenge: string;
  rpId: string;
  timeout?: number;
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
  userVerification?: string;
  extensions?: Record<string, unknown>;
}

/** A WebAuthn assertion (`PublicKeyCredential.toJSON()`), every binary field unpadded base64url. */
export interface ScanPasskeyAssertion {
  id: string;
  rawId: string;
  type: 'public-key';
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle: string | null;
  };
}

/** The ceremony's driver events (beside `passkey`, which starts it). */
export type ScanPasskeyEvent =
  /** The phone answered (`crsc_continuation`): `code` is what it shows, `XXXX-XXXX`. */
  | { type: 'passkey-confirmation'; code: string }
  /** The ceremony cannot go on: WhatsApp refused a step, or a notification made no sense. */
  | { type: 'passkey-failed'; reason: string };

/** The ceremony's steps on an open socket (only while WhatsApp's passkey check runs). */
export interface ScanPasskeySteps {
  /** Sends the person's assertion on (ref, `passkey_prologue`); rejects when WhatsApp refuses it. */
  assertion(assertion: ScanPasskeyAssertion): Promise<void>;
  /** The person confirmed the code: the encrypted pairing request goes; pair-success follows. */
  confirm(): Promise<void>;
}
