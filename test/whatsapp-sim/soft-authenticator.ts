// A software WebAuthn authenticator for tests: the account's passkey (a P-256 key pair made with
// node:crypto), registered with the simulated phone (`sim.registerPasskey(phone, auth.passkey)`),
// and assertions over WhatsApp's challenge as a browser on WhatsApp Web returns them
// (`PublicKeyCredential.toJSON()`). Each part can be spoiled, for tests of what WhatsApp refuses.
import { createHash, generateKeyPairSync, randomBytes, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { PASSKEY_RP_ID } from './passkey-gate.js';
import type { RegisteredPasskey } from './passkey-ceremony.js';
import { WEB_ORIGIN } from './passkey-phone-crypto.js';

/** `PublicKeyCredential.toJSON()` of an assertion: every binary field unpadded base64url. */
export interface AssertionJson {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string | null };
}

/** What to spoil in an assertion (all default to what a real browser and authenticator produce). */
export interface AssertionOverrides {
  challenge?: string;
  origin?: string;
  /** clientDataJSON's `type` (a real assertion: `webauthn.get`). */
  clientType?: string;
  rpId?: string;
  /** The authenticator data's flags (default UP | UV: 0x05). */
  flags?: number;
  /** Sign with another key than the registered one. */
  foreignKey?: boolean;
}

const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private signCount = 0;

  get publicKey(): KeyObject {
    return this.keys.publicKey;
  }

  /** What the phone registered: `sim.registerPasskey(phone, auth.passkey)`. */
  get passkey(): RegisteredPasskey {
    return { id: this.credentialId, publicKey: this.keys.publicKey };
  }

  /** The public key as a JWK, as `POST /passkey` takes it. */
  get jwk(): JsonWebKey {
    return this.keys.publicKey.export({ format: 'jwk' });
  }

  /** An assertion over `challenge` (the request options' unpadded base64url challenge). */
  assert(challenge: string, spoil: AssertionOverrides = {}): AssertionJson {
    const clientData = Buffer.from(
      JSON.stringify({
        type: spoil.clientType ?? 'webauthn.get',
        challenge: spoil.challenge ?? challenge,
        origin: spoil.origin ?? WEB_ORIGIN,
        crossOrigin: false,
      }),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.signCount);
    const authenticatorData = Buffer.concat([sha256(spoil.rpId ?? PASSKEY_RP_ID), Buffer.from([spoil.flags ?? 0x05]), counter]);
    const key = spoil.foreignKey ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey : this.keys.privateKey;
    // ES256 as WebAuthn encodes it: DER, over authenticatorData ‖ SHA-256(clientDataJSON).
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientData)]), { key, dsaEncoding: 'der' });
    const id = this.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: null,
      },
    };
  }
}
