import { createCipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { bytesToCrockford, Curve, proto } from '@whiskeysockets/baileys';

// The companion's cryptography of WhatsApp's passkey linking ("Shortcake" / CRSC), as whatsmeow's
// pair-passkey.go and whatsapp-rust's shortcake.rs implement it (docs/passkey.md#the-protocol-as-implemented-companion-side).
// Pure functions: the ceremony (passkey-ceremony.ts) holds the state.

export const HANDOFF_INFO = 'shortcake-passkey-handoff-v1';
export const PAIRING_KEY_INFO = 'Pairing Information Encryption Key';
/** How long the handoff key may prove the link's continuity (whatsmeow's window). */
export const HANDOFF_VALID_MS = 5 * 60_000;

export interface KeyPair {
  public: Buffer;
  private: Buffer;
}

/** What the companion committed to in its prologue, kept until the pairing request. */
export interface Prologue {
  /** Serialized `ProloguePayload` (the `<prologue_payload>` node). */
  payload: Buffer;
  /** Serialized `CompanionEphemeralIdentity` (inside the payload). */
  identity: Buffer;
  /** The 32-byte nonce the commitment hides until `<companion_nonce>`. */
  nonce: Buffer;
  keyPair: KeyPair;
  ref: string;
  deviceType: number;
}

const hkdf = (ikm: Uint8Array, salt: Uint8Array, info: string): Buffer => Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from(info), 32));
const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** The handoff key, from the ADV secret the phone scanned (before it is rotated). */
export function handoffKey(advSecret: Uint8Array): Buffer {
  return hkdf(advSecret, Buffer.alloc(0), HANDOFF_INFO);
}

/** A fresh ephemeral identity and nonce, committed to in a `ProloguePayload`. */
export function buildPrologue(ref: string, deviceType: number): Prologue {
  const pair = Curve.generateKeyPair();
  const keyPair = { public: Buffer.from(pair.public), private: Buffer.from(pair.private) };
  const nonce = randomBytes(32);
  const identity = Buffer.from(proto.CompanionEphemeralIdentity.encode({ publicKey: keyPair.public, deviceType, ref }).finish());
  const payload = Buffer.from(proto.ProloguePayload.encode({ companionEphemeralIdentity: identity, commitment: { hash: sha256(identity, nonce) } }).finish());
  return { payload, identity, nonce, keyPair, ref, deviceType };
}

/** HMAC-SHA256 of the prologue payload with the handoff key: the link continues the scanned one. */
export function handoffProof(key: Uint8Array, payload: Uint8Array): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/** The key the pairing request is encrypted with (the human-readable string is the salt). */
export function pairingKey(prologue: Prologue, primaryPublic: Uint8Array): Buffer {
  const shared = Curve.sharedKey(prologue.keyPair.private, Buffer.from(primaryPublic));
  return hkdf(shared, Buffer.from(`Companion Pairing ${prologue.deviceType} with ref ${prologue.ref}`), PAIRING_KEY_INFO);
}

/**
 * The 8-character code the phone shows (`XXXX-XXXX`): five bytes of the primary's nonce masked by
 * SHA-256(companion nonce ‖ primary public key), in WhatsApp's linking base32 (Baileys'
 * `bytesToCrockford` uses the same alphabet, `123456789ABCDEFGHJKLMNPQRSTVWXYZ`).
 */
export function confirmationCode(companionNonce: Uint8Array, primaryPublic: Uint8Array, primaryNonce: Uint8Array): string {
  const digest = sha256(companionNonce, primaryPublic);
  const bytes = Buffer.alloc(5);
  for (let i = 0; i < 5; i++) bytes[i] = primaryNonce[i] ^ digest[i];
  const code = bytesToCrockford(bytes);
  return `${code.slice(0, 4)}-${code.slice(4, 8)}`;
}

/** Serialized `EncryptedPairingRequest`: the companion's noise and identity keys and the new ADV secret. */
export function encryptPairingRequest(key: Uint8Array, request: { noisePublic: Uint8Array; identityPublic: Uint8Array; advSecret: Uint8Array }): Buffer {
  const plain = proto.PairingRequest.encode({
    companionPublicKey: request.noisePublic,
    companionIdentityKey: request.identityPublic,
    advSecret: request.advSecret,
  }).finish();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return Buffer.from(proto.EncryptedPairingRequest.encode({ encryptedPayload: encrypted, iv }).finish());
}
