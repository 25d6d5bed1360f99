// WhatsApp's (and the phone's) side of a passkey ceremony ("Shortcake" / CRSC linking), for a
// gated account with a registered passkey, as the companion speaks it (docs/passkey.md, "The
// protocol, as implemented"):
//   server → companion  passkey_prologue_request (WebAuthn request options, our challenge)
//   companion → server  iq get <ref/> → a fresh ref; iq set <passkey_prologue> (the assertion, the
//                       committed ephemeral identity, the handoff proof) → checked, result
//   server → companion  crsc_continuation (the phone's ephemeral key and nonce)
//   companion → server  iq set <companion_nonce> → opens the commitment; the phone shows its code
//   companion → server  iq set <encrypted_pairing_request> → opened with the X25519 key, its keys
//                       checked against the handshake and the registration; then pair-success with
//                       the request's new ADV secret, 515, login, as after a scan.
// Any refused step answers `401 not-authorized` and ends the ceremony: nothing is linked.
import { getBinaryNodeChild, type BinaryNode } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import type { DeviceConnection, RestartAfter } from './device-connection.js';
import { crscContinuation, passkeyOptionsNode, passkeyPrologueRequest, passkeyRequestOptions } from './passkey-gate.js';
import {
  assertionProblem,
  expectedHandoffProof,
  pairingKeyOf,
  phoneCode,
  primaryKeys,
  sha256,
  type PrimaryKeys,
  type RegisteredPasskey,
} from './passkey-phone-crypto.js';
import type { Account, LinkedDevice } from './sim-model.js';
import { bytes, iqResult } from './stanzas.js';
import {
  ceremonyIqOf,
  notAuthorized,
  openPairingRequest,
  PasskeyCeremonyError,
  rawKey,
  readPrologue,
  Refused,
  type CeremonyIq,
  type Commitment,
  type PasskeyFailureReason,
  type PasskeyStep,
} from './passkey-wire.js';

export type { RegisteredPasskey } from './passkey-phone-crypto.js';
export { PASSKEY_STEPS, PasskeyCeremonyError, type PasskeyFailureReason, type PasskeyStep } from './passkey-wire.js';

/** What a test (or `GET /passkey/:phone`) sees of a phone's latest ceremony. */
export interface PasskeyCeremonyState {
  step: PasskeyStep;
  /** The code the phone shows (`XXXX-XXXX`), once the companion revealed its nonce. */
  code: string | null;
  /** Whether the prologue carried a `pairing_handoff_proof` (checked on the QR path). */
  handoffProof: boolean;
  /** The WebAuthn challenge of the request options (unpadded base64url). */
  challenge: string;
  reason: PasskeyFailureReason | null;
  /** How the link began: a scanned QR code or an entered pairing code. */
  via: 'qr' | 'code';
}

export interface CeremonyInput {
  conn: DeviceConnection;
  account: Account;
  passkey: RegisteredPasskey;
  /**
   * The ADV secret the phone scanned (QR path), the key of the handoff proof. Null on the
   * pairing-code path: a gated phone's keyless `link_code_companion_reg` ends that exchange before
   * any ADV secret is agreed, so a proof there is recorded, not checked.
   */
  handoffSecret: Buffer | null;
  via: 'qr' | 'code';
  restartAfter?: RestartAfter;
  timeoutMs: number;
  onStep(step: PasskeyStep): void;
}

/**
 * Answers `iq` when it is one of the ceremony's (true); false for any other. On a connection with no
 * ceremony (an account without a passkey, a linked device) WhatsApp has nothing to check it against
 * and refuses it.
 */
export const answerCeremonyIq = (conn: DeviceConnection, iq: BinaryNode): boolean => {
  const kind = ceremonyIqOf(iq);
  if (!kind) return false;
  if (conn.passkey) conn.passkey.onIq(kind, iq);
  else conn.send(notAuthorized(iq.attrs.id));
  return true;
};

export class PasskeyCeremony {
  readonly challenge = randomBytes(32).toString('base64url');
  /** Every step reached, in order. */
  readonly steps: PasskeyStep[] = [];
  code: string | null = null;
  handoffProof = false;
  error: PasskeyCeremonyError | null = null;
  private ref: string | null = null;
  private commitment: Commitment | null = null;
  private primary: PrimaryKeys | null = null;
  private pairing = false;
  private timer?: NodeJS.Timeout;
  private settle?: { resolve: (device: LinkedDevice) => void; reject: (error: Error) => void };

  constructor(private readonly input: CeremonyInput) {}

  get phone(): string {
    return this.input.account.phone;
  }

  get step(): PasskeyStep {
    return this.steps.at(-1) ?? 'request';
  }

  get ended(): boolean {
    return this.step === 'paired' || this.step === 'failed';
  }

  state(): PasskeyCeremonyState {
    const { step, code, handoffProof, challenge } = this;
    return { step, code, handoffProof, challenge, reason: this.error?.reason ?? null, via: this.input.via };
  }

  /** Sends the prologue request; resolves with the linked device, or rejects with `PasskeyCeremonyError`. */
  start(): Promise<LinkedDevice> {
    const done = new Promise<LinkedDevice>((resolve, reject) => (this.settle = { resolve, reject }));
    // The options' timeout is the ceremony's: past it WhatsApp's challenge is worthless.
    this.timer = setTimeout(() => this.fail('timeout', `nothing linked within ${this.input.timeoutMs} ms`), this.input.timeoutMs);
    this.timer.unref();
    this.input.conn.send(passkeyPrologueRequest(this.input.conn.nextId(), this.options()));
    this.reach('request');
    return done;
  }

  /** The companion's socket closed: the ceremony cannot go on. */
  closed(): void {
    this.fail('closed', 'the companion closed its connection');
  }

  onIq(kind: CeremonyIq, iq: BinaryNode): void {
    const id = iq.attrs.id;
    const send = (node: BinaryNode): void => this.input.conn.send(node);
    if (kind === 'ref' || kind === 'passkey_request_options') {
      // Queries that change nothing, answered while WhatsApp waits for the prologue (the options
      // are whatsmeow's fallback when a notification came without them).
      if (this.step !== 'request') return send(notAuthorized(id));
      if (kind === 'passkey_request_options') return send(iqResult(id, [passkeyOptionsNode(this.options())]));
      this.ref = randomBytes(16).toString('base64url');
      return send(iqResult(id, [{ tag: 'ref', attrs: {}, content: Buffer.from(this.ref) }]));
    }
    try {
      if (kind === 'passkey_prologue') this.prologue(iq);
      else if (kind === 'companion_nonce') this.nonce(iq);
      else this.pairingRequest(iq);
    } catch (error) {
      const refused = error instanceof Refused ? error : new Refused('pairing-request', error instanceof Error ? error.message : String(error));
      send(notAuthorized(id));
      this.fail(refused.reason, refused.message);
    }
  }

  private options(): Record<string, unknown> {
    return passkeyRequestOptions(this.challenge, this.input.timeoutMs);
  }

  private expect(step: PasskeyStep, reason: PasskeyFailureReason, what: string): void {
    if (this.step !== step || this.pairing) throw new Refused(reason, `${what} out of order (the ceremony is at ${this.step})`);
  }

  private prologue(iq: BinaryNode): void {
    this.expect('request', 'assertion', 'passkey_prologue');
    const node = getBinaryNodeChild(iq, 'passkey_prologue');
    const child = (tag: string): Buffer | undefined => bytes(getBinaryNodeChild(node, tag));
    const problem = assertionProblem({
      credentialId: child('credential_id'),
      assertion: child('webauthn_assertion'),
      passkey: this.input.passkey,
      challenge: this.challenge,
    });
    if (problem) throw new Refused('assertion', problem);
    const payload = child('prologue_payload');
    if (!payload) throw new Refused('commitment', 'prologue_payload is missing');
    const proof = child('pairing_handoff_proof');
    const secret = this.input.handoffSecret;
    if (proof && secret && !proof.equals(expectedHandoffProof(secret, payload))) {
      throw new Refused('handoff-proof', 'pairing_handoff_proof is not the HMAC of the payload under the scanned secret');
    }
    this.commitment = readPrologue(payload, this.ref);
    this.handoffProof = proof !== undefined;
    this.input.conn.send(iqResult(iq.attrs.id));
    this.reach('assertion');
    this.primary = primaryKeys();
    this.input.conn.send(crscContinuation(this.input.conn.nextId(), { publicKey: this.primary.publicKey, nonce: this.primary.nonce }));
    this.reach('continuation');
  }

  private nonce(iq: BinaryNode): void {
    this.expect('continuation', 'commitment', 'companion_nonce');
    const nonce = bytes(getBinaryNodeChild(iq, 'companion_nonce'));
    const { commitment, primary } = this;
    if (!commitment || !primary) throw new Refused('commitment', 'no prologue was accepted');
    if (nonce?.length !== 32) throw new Refused('commitment', 'the companion nonce is not 32 bytes');
    if (!sha256(commitment.identity, nonce).equals(commitment.hash)) throw new Refused('commitment', 'SHA-256(identity ‖ nonce) is not the commitment');
    this.code = phoneCode(nonce, primary.publicKey, primary.nonce);
    this.input.conn.send(iqResult(iq.attrs.id));
    this.reach('nonce');
  }

  private pairingRequest(iq: BinaryNode): void {
    this.expect('nonce', 'pairing-request', 'encrypted_pairing_request');
    const { commitment, primary } = this;
    const { conn } = this.input;
    if (!commitment || !primary || !conn.registration || !conn.clientStatic)
      throw new Refused('pairing-request', 'this connection is not waiting to be linked');
    const key = pairingKeyOf(primary, commitment.publicKey, commitment.deviceType, commitment.ref);
    const request = openPairingRequest(bytes(getBinaryNodeChild(iq, 'encrypted_pairing_request')), key);
    if (!rawKey(request.companionPublicKey ?? new Uint8Array()).equals(rawKey(conn.clientStatic))) {
      throw new Refused('pairing-request', 'companionPublicKey is not the Noise key this client connected with');
    }
    if (!rawKey(request.companionIdentityKey ?? new Uint8Array()).equals(rawKey(conn.registration.bundle.identityKey))) {
      throw new Refused('pairing-request', 'companionIdentityKey is not the identity key the client registered');
    }
    const advSecret = Buffer.from(request.advSecret ?? []);
    if (advSecret.length !== 32) throw new Refused('pairing-request', 'the new ADV secret is not 32 bytes');
    this.pairing = true;
    conn.send(iqResult(iq.attrs.id));
    // Not awaited: the client's answer to pair-success arrives on the connection whose frame this is.
    void this.pair(advSecret);
  }

  /**
   * A pair-success signed with the ADV secret the phone scanned, as if the check were skipped
   * (a forged or out-of-order pair-success): a companion that rotated its secret on the prologue
   * request refuses it. Resolves once the client answered (the ceremony then ends either way).
   */
  async skipToPairing(): Promise<void> {
    const secret = this.input.handoffSecret;
    if (!secret) throw new Error('only a QR-path ceremony knows the scanned ADV secret');
    this.pairing = true;
    await this.pair(secret);
  }

  private async pair(advSecret: Buffer): Promise<void> {
    try {
      const device = await this.input.conn.pair(this.input.account, advSecret, this.input.restartAfter);
      if (this.ended) return;
      clearTimeout(this.timer);
      this.reach('paired');
      this.settle?.resolve(device);
    } catch (error) {
      this.fail('pairing-request', `the client did not take pair-success: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private fail(reason: PasskeyFailureReason, detail: string): void {
    if (this.ended) return;
    clearTimeout(this.timer);
    this.error = new PasskeyCeremonyError(this.phone, reason, detail);
    // Nothing was linked, and this registration is spent: its QR cannot be scanned again.
    this.input.conn.registration = undefined;
    this.reach('failed');
    this.settle?.reject(this.error);
  }

  private reach(step: PasskeyStep): void {
    this.steps.push(step);
    this.input.onStep(step);
  }
}
