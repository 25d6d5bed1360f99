// The phone's side of linking by pairing code (WhatsApp's `link_code_companion_reg`), mirroring
// what Baileys rc14 speaks as the companion (Socket/socket.js requestPairingCode, and the
// `link_code_companion_reg` notification in Socket/messages-recv.js):
// 1. companion → server: iq `companion_hello` with its ephemeral public key wrapped with the code
//    (salt 32 | iv 16 | AES-CTR under PBKDF2-SHA256(code, salt, 2^17 rounds)); the server answers
//    with the pairing ref;
// 2. the person types the code on the phone; phone → companion (a notification): the ref, the
//    phone's identity key and its own ephemeral key wrapped the same way;
// 3. companion → server: iq `companion_finish`: its key bundle (its identity key, the phone's, 32
//    random bytes) under AES-GCM with HKDF(X25519(ephemerals), salt, "link_code_pairing_key_bundle_
//    encryption_key"); both sides derive the ADV secret HKDF(shared ‖ X25519(identities) ‖ random,
//    "adv_secret"), which signs the pair-success that follows, as the QR's ADV secret does.
// A wrong code unwraps to a different key on each side: the bundle does not open (GCM), and the
// phone refuses the link.
import { aesDecryptCTR, aesDecryptGCM, aesEncryptCTR, Curve, derivePairingCodeKey, getBinaryNodeChild, hkdf, type BinaryNode } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import { bytes, nowSeconds, SERVER } from './stanzas.js';

/** What a companion's `companion_hello` carried. */
export interface CompanionHello {
  /** The number the code was asked for (digits). */
  phone: string;
  wrappedEphemeral: Buffer;
  /** The ref the server gave this registration by code. */
  ref: string;
  /** When the companion asked (the person types the code after that). */
  at: number;
}

/** The phone refused the code: it was not the one the companion shows. */
export class WrongPairingCodeError extends Error {
  constructor() {
    super('the phone refused the code: it is not the one the linking device shows');
    this.name = 'WrongPairingCodeError';
  }
}

const linkCodeReg = (iq: BinaryNode): BinaryNode | undefined => getBinaryNodeChild(iq, 'link_code_companion_reg');

/** The stage of a companion's `link_code_companion_reg` iq (`companion_hello`, `companion_finish`), or undefined. */
export const linkCodeStage = (iq: BinaryNode): string | undefined => (iq.attrs.xmlns === 'md' ? linkCodeReg(iq)?.attrs.stage : undefined);

export const readCompanionHello = (iq: BinaryNode): CompanionHello | null => {
  const reg = linkCodeReg(iq);
  const wrapped = bytes(getBinaryNodeChild(reg, 'link_code_pairing_wrapped_companion_ephemeral_pub'));
  const phone = reg?.attrs.jid?.split('@')[0]?.split(':')[0];
  if (!reg || reg.attrs.stage !== 'companion_hello' || !wrapped || wrapped.length < 80 || !phone) return null;
  return { phone, wrappedEphemeral: wrapped, ref: randomBytes(16).toString('base64url'), at: Date.now() };
};

/** The server's answer to `companion_hello`: the ref of this registration by code. */
export const helloAnswer = (id: string, hello: CompanionHello): BinaryNode => ({
  tag: 'iq',
  attrs: { id, type: 'result', from: SERVER },
  content: [{ tag: 'link_code_companion_reg', attrs: {}, content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(hello.ref) }] }],
});

const unwrap = async (wrapped: Buffer, code: string): Promise<Buffer> =>
  aesDecryptCTR(wrapped.subarray(48, 80), await derivePairingCodeKey(code, wrapped.subarray(0, 32)), wrapped.subarray(32, 48));

const wrap = async (key: Uint8Array, code: string): Promise<Buffer> => {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  return Buffer.concat([salt, iv, aesEncryptCTR(key, await derivePairingCodeKey(code, salt), iv)]);
};

/** One entry of a code on the phone: its keys, its notification to the companion, its check of the answer. */
export class PhoneCodeEntry {
  private readonly ephemeral = Curve.generateKeyPair();
  /** The phone's identity key for this link (a fresh one: nothing else of the simulator uses it). */
  private readonly identity = Curve.generateKeyPair();
  private companionEphemeral: Buffer | undefined;

  constructor(
    private readonly hello: CompanionHello,
    /** As typed (WhatsApp shows `ABCD-EFGH`; the phone takes the 8 characters). */
    private readonly code: string,
  ) {}

  /** The `link_code_companion_reg` notification the companion gets once the code was typed. */
  async notification(id: string): Promise<BinaryNode> {
    const typed = this.code.replace(/[-\s]/g, '').toUpperCase();
    this.companionEphemeral = await unwrap(this.hello.wrappedEphemeral, typed);
    return {
      tag: 'notification',
      attrs: { from: SERVER, type: 'link_code_companion_reg', id, t: nowSeconds() },
      content: [
        {
          tag: 'link_code_companion_reg',
          attrs: {},
          content: [
            { tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(this.hello.ref) },
            { tag: 'primary_identity_pub', attrs: {}, content: this.identity.public },
            { tag: 'link_code_pairing_wrapped_primary_ephemeral_pub', attrs: {}, content: await wrap(this.ephemeral.public, typed) },
          ],
        },
      ],
    };
  }

  /** The same notification as a gated account's phone sends it: the ref and its identity key, no wrapped ephemeral key. */
  keylessNotification(id: string): BinaryNode {
    return {
      tag: 'notification',
      attrs: { from: SERVER, type: 'link_code_companion_reg', id, t: nowSeconds() },
      content: [
        {
          tag: 'link_code_companion_reg',
          attrs: {},
          content: [
            { tag: 'link_code_pairing_ref', attrs: {}, content: Buffer.from(this.hello.ref) },
            { tag: 'primary_identity_pub', attrs: {}, content: this.identity.public },
          ],
        },
      ],
    };
  }

  /** Opens the companion's `companion_finish` and answers the ADV secret; `WrongPairingCodeError` when it does not open. */
  finish(iq: BinaryNode): Buffer {
    const reg = linkCodeReg(iq);
    const bundle = bytes(getBinaryNodeChild(reg, 'link_code_pairing_wrapped_key_bundle'));
    const ref = bytes(getBinaryNodeChild(reg, 'link_code_pairing_ref'))?.toString();
    if (!bundle || bundle.length < 44 + 16 || ref !== this.hello.ref || !this.companionEphemeral) throw new Error('malformed companion_finish');
    const shared = Curve.sharedKey(this.ephemeral.private, this.companionEphemeral);
    const key = Buffer.from(hkdf(shared, 32, { salt: bundle.subarray(0, 32), info: 'link_code_pairing_key_bundle_encryption_key' }));
    let plain: Buffer;
    try {
      plain = aesDecryptGCM(bundle.subarray(44), key, bundle.subarray(32, 44), Buffer.alloc(0));
    } catch {
      throw new WrongPairingCodeError();
    }
    const companionIdentity = plain.subarray(0, 32);
    if (!plain.subarray(32, 64).equals(Buffer.from(this.identity.public))) throw new WrongPairingCodeError();
    const identityShared = Curve.sharedKey(this.identity.private, companionIdentity);
    return Buffer.from(hkdf(Buffer.concat([shared, identityShared, plain.subarray(64, 96)]), 32, { info: 'adv_secret' }));
  }
}
