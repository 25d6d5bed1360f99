// The wire side of a passkey ceremony (passkey-ceremony.ts): which iqs are the ceremony's, what a
// prologue payload and an encrypted pairing request decode to, and how a refused step is named.
import { proto, type BinaryNode } from '@whiskeysockets/baileys';
import { openGcm } from './passkey-phone-crypto.js';
import { children, iqError } from './stanzas.js';

/** The steps a ceremony reaches, in order; `failed` ends it anywhere. */
export const PASSKEY_STEPS = ['request', 'assertion', 'continuation', 'nonce', 'paired', 'failed'] as const;
export type PasskeyStep = (typeof PASSKEY_STEPS)[number];

/**
 * Why a ceremony ended without a link: the assertion (credential, client data, authenticator data,
 * signature), the handoff proof, the commitment (the prologue payload, or a nonce that does not open
 * it), the encrypted pairing request (or the pair-success after it), the companion's socket closed,
 * or the time of the request options ran out.
 */
export type PasskeyFailureReason = 'assertion' | 'handoff-proof' | 'commitment' | 'pairing-request' | 'closed' | 'timeout';

export class PasskeyCeremonyError extends Error {
  constructor(
    readonly phone: string,
    readonly reason: PasskeyFailureReason,
    detail: string,
  ) {
    super(`the passkey ceremony of ${phone} failed (${reason}): ${detail}`);
    this.name = 'PasskeyCeremonyError';
  }
}

/** The ceremony iqs the server answers (their one child's tag) and the type each must have. */
const CEREMONY_IQS = { ref: 'get', passkey_request_options: 'get', passkey_prologue: 'set', companion_nonce: 'set', encrypted_pairing_request: 'set' } as const;
export type CeremonyIq = keyof typeof CEREMONY_IQS;

export const ceremonyIqOf = (iq: BinaryNode): CeremonyIq | undefined => {
  const tag = children(iq)[0]?.tag;
  if (iq.attrs.xmlns !== 'md' || !tag || !Object.hasOwn(CEREMONY_IQS, tag)) return undefined;
  return CEREMONY_IQS[tag as CeremonyIq] === iq.attrs.type ? (tag as CeremonyIq) : undefined;
};

export const notAuthorized = (id: string): BinaryNode => iqError(id, 401, 'not-authorized');

/** A step refused: the iq gets 401 and the ceremony ends with `reason`. */
export class Refused extends Error {
  constructor(
    readonly reason: PasskeyFailureReason,
    message: string,
  ) {
    super(message);
  }
}

/** What the companion committed to in its prologue. */
export interface Commitment {
  /** The serialized CompanionEphemeralIdentity, as hashed with the nonce. */
  identity: Buffer;
  publicKey: Buffer;
  deviceType: number;
  ref: string;
  hash: Buffer;
}

export const readPrologue = (payload: Buffer, issuedRef: string | null): Commitment => {
  let identity: Buffer;
  let decoded: proto.CompanionEphemeralIdentity;
  let hash: Buffer;
  try {
    const prologue = proto.ProloguePayload.decode(payload);
    identity = Buffer.from(prologue.companionEphemeralIdentity ?? []);
    hash = Buffer.from(prologue.commitment?.hash ?? []);
    decoded = proto.CompanionEphemeralIdentity.decode(identity);
  } catch {
    throw new Refused('commitment', 'prologue_payload is not a ProloguePayload with a CompanionEphemeralIdentity');
  }
  const publicKey = Buffer.from(decoded.publicKey ?? []);
  if (publicKey.length !== 32) throw new Refused('commitment', 'the companion ephemeral key is not 32 bytes');
  if (hash.length !== 32) throw new Refused('commitment', 'the commitment hash is not 32 bytes');
  if (typeof decoded.deviceType !== 'number') throw new Refused('commitment', 'the companion identity has no device type');
  if (!issuedRef || decoded.ref !== issuedRef) throw new Refused('commitment', 'the companion identity does not carry the ref WhatsApp issued');
  return { identity, publicKey, deviceType: decoded.deviceType, ref: decoded.ref, hash };
};

/** A 32-byte Curve25519 key, whether given raw or with libsignal's 0x05 type prefix. */
export const rawKey = (key: Uint8Array): Buffer => Buffer.from(key.length === 33 && key[0] === 5 ? key.subarray(1) : key);

/** Opens `<encrypted_pairing_request>` (EncryptedPairingRequest: AES-256-GCM, no AAD) with the pairing key. */
export const openPairingRequest = (raw: Buffer | undefined, key: Buffer): proto.PairingRequest => {
  try {
    const sealed = proto.EncryptedPairingRequest.decode(raw ?? Buffer.alloc(0));
    return proto.PairingRequest.decode(openGcm(key, sealed.iv ?? new Uint8Array(), sealed.encryptedPayload ?? new Uint8Array()));
  } catch (error) {
    throw new Refused('pairing-request', `the pairing request does not open: ${error instanceof Error ? error.message : String(error)}`);
  }
};
