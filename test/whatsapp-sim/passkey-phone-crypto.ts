// What WhatsApp and the phone compute in a passkey ceremony (passkey-ceremony.ts), written from
// the scheme with node:crypto alone: no Baileys helper and nothing from src/, so that the
// companion's implementation (src/modules/chat/driver/baileys/passkey/shortcake-crypto.ts) is
// checked against a second, independent one rather than against itself.
import {
  createDecipheriv,
  createHash,
  createHmac,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  verify,
  type KeyObject,
} from 'node:crypto';
import { PASSKEY_RP_ID } from './passkey-gate.js';

/** The only origin WhatsApp's passkeys are used from (the browser tab on WhatsApp Web). */
export const WEB_ORIGIN = 'https://web.whatsapp.com';
const HANDOFF_INFO = 'shortcake-passkey-handoff-v1';
const PAIRING_INFO = 'Pairing Information Encryption Key';
/** WhatsApp's linking base32: Crockford's digits and letters without 0, I, O and U. */
const LINKING_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ';
const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;

/** An account's passkey as the phone registered it: the credential id and its ES256 (P-256) public key. */
export interface RegisteredPasskey {
  id: Buffer;
  publicKey: KeyObject;
}

export const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const hkdf32 = (ikm: Uint8Array, salt: string | Uint8Array, info: string): Buffer => Buffer.from(hkdfSync('sha256', ikm, salt, info, 32));

/** HMAC-SHA256(HKDF(ADV secret, "shortcake-passkey-handoff-v1"), payload): the companion is the one that was scanned. */
export const expectedHandoffProof = (advSecret: Uint8Array, payload: Uint8Array): Buffer =>
  createHmac('sha256', hkdf32(advSecret, Buffer.alloc(0), HANDOFF_INFO))
    .update(payload)
    .digest();

/** The phone's ephemeral X25519 identity for one ceremony, and its nonce. */
export interface PrimaryKeys {
  publicKey: Buffer;
  privateKey: KeyObject;
  nonce: Buffer;
}

export const primaryKeys = (): PrimaryKeys => {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  const raw = publicKey.export({ format: 'jwk' }).x;
  if (!raw) throw new Error('node:crypto exported an X25519 key without its x');
  return { publicKey: Buffer.from(raw, 'base64url'), privateKey, nonce: randomBytes(32) };
};

/** The key of the encrypted pairing request: HKDF(X25519(primary, companion), "Companion Pairing <type> with ref <ref>"). */
export const pairingKeyOf = (primary: PrimaryKeys, companionPublic: Buffer, deviceType: number, ref: string): Buffer => {
  const peer = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: companionPublic.toString('base64url') }, format: 'jwk' });
  const shared = diffieHellman({ privateKey: primary.privateKey, publicKey: peer });
  return hkdf32(shared, `Companion Pairing ${deviceType} with ref ${ref}`, PAIRING_INFO);
};

/** The code the phone shows, `XXXX-XXXX`: five nonce bytes masked by SHA-256(companion nonce ‖ primary key). */
export const phoneCode = (companionNonce: Uint8Array, primaryPublic: Uint8Array, primaryNonce: Uint8Array): string => {
  const digest = sha256(companionNonce, primaryPublic);
  // 5 bytes = 40 bits = eight 5-bit groups, most significant first.
  let bits = 0n;
  for (let i = 0; i < 5; i++) bits = (bits << 8n) | BigInt(primaryNonce[i] ^ digest[i]);
  let code = '';
  for (let shift = 35n; shift >= 0n; shift -= 5n) code += LINKING_ALPHABET[Number((bits >> shift) & 31n)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
};

/** AES-256-GCM (no AAD) of `ciphertext ‖ 16-byte tag`; throws when it does not open. */
export const openGcm = (key: Buffer, iv: Uint8Array, sealed: Uint8Array): Buffer => {
  if (iv.length !== 12 || sealed.length < 16) throw new Error('the iv must be 12 bytes and the payload end in a 16-byte tag');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
};

/** Unpadded base64url only (what WebAuthn's JSON forms use); anything else is not accepted. */
const base64url = (value: unknown): Buffer | null =>
  typeof value === 'string' && /^[A-Za-z0-9_-]*$/.test(value) && value.length % 4 !== 1 ? Buffer.from(value, 'base64url') : null;

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

export interface AssertionInput {
  /** `<credential_id>`: the raw credential id. */
  credentialId: Buffer | undefined;
  /** `<webauthn_assertion>`: UTF-8 JSON of the PublicKeyCredential. */
  assertion: Buffer | undefined;
  passkey: RegisteredPasskey;
  /** The challenge WhatsApp sent (unpadded base64url). */
  challenge: string;
}

/**
 * Checks a WebAuthn assertion as WhatsApp's server would: the credential is the account's, the
 * client data is a `webauthn.get` of our challenge from WhatsApp Web, the authenticator data is for
 * rpId whatsapp.com with the user present and verified, and the ES256 signature over
 * authenticatorData ‖ SHA-256(clientDataJSON) holds. Returns what is wrong, or null.
 */
export const assertionProblem = ({ credentialId, assertion, passkey, challenge }: AssertionInput): string | null => {
  if (!credentialId || !assertion) return 'credential_id and webauthn_assertion are required';
  if (!credentialId.equals(passkey.id)) return "credential_id is not the account's passkey";
  const credential = record(parseJson(assertion.toString('utf8')));
  const response = record(credential?.response);
  if (!credential || !response) return 'webauthn_assertion is not a PublicKeyCredential JSON';
  if (credential.type !== 'public-key') return 'the credential type is not public-key';
  const rawId = base64url(credential.rawId);
  if (!rawId?.equals(credentialId) || !base64url(credential.id)?.equals(rawId)) return 'id and rawId do not name the credential of credential_id';
  const clientDataJson = base64url(response.clientDataJSON);
  const authenticatorData = base64url(response.authenticatorData);
  const signature = base64url(response.signature);
  if (!clientDataJson || !authenticatorData || !signature) return 'clientDataJSON, authenticatorData and signature must be unpadded base64url';
  if (response.userHandle != null && !base64url(response.userHandle)) return 'userHandle must be null or unpadded base64url';
  const clientData = record(parseJson(clientDataJson.toString('utf8')));
  if (clientData?.type !== 'webauthn.get') return 'clientDataJSON is not a webauthn.get';
  if (clientData.challenge !== challenge) return 'clientDataJSON carries another challenge';
  if (clientData.origin !== WEB_ORIGIN) return `clientDataJSON's origin is not ${WEB_ORIGIN}`;
  if (authenticatorData.length < 37) return 'authenticatorData is too short';
  if (!authenticatorData.subarray(0, 32).equals(sha256(Buffer.from(PASSKEY_RP_ID)))) return `authenticatorData is not for ${PASSKEY_RP_ID}`;
  const flags = authenticatorData[32];
  if (!(flags & FLAG_USER_PRESENT) || !(flags & FLAG_USER_VERIFIED)) return 'the authenticator did not report the user present and verified';
  // A malformed DER signature may throw rather than answer false: either way it does not verify.
  const valid = (() => {
    try {
      return verify('sha256', Buffer.concat([authenticatorData, sha256(clientDataJson)]), { key: passkey.publicKey, dsaEncoding: 'der' }, signature);
    } catch {
      return false;
    }
  })();
  return valid ? null : "the signature does not verify with the account's passkey";
};
