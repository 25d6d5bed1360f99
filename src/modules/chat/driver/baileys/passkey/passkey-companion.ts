import { randomBytes } from 'node:crypto';
import { type AuthenticationCreds, type BinaryNode, getBinaryNodeChild, proto, S_WHATSAPP_NET } from '@whiskeysockets/baileys';
import type { ScanEvent, ScanPasskeyAssertion } from '../../scan-driver.port.js';
import type { BaileysSocket } from '../baileys-socket.types.js';
import {
  buildPrologue,
  confirmationCode,
  encryptPairingRequest,
  HANDOFF_VALID_MS,
  handoffKey,
  handoffProof,
  pairingKey,
  type Prologue,
} from './shortcake-crypto.js';

export interface CompanionHooks {
  creds(): AuthenticationCreds;
  saveCreds(): Promise<void>;
  emit(event: ScanEvent): void;
  /** The platform type the socket registered with (Baileys: CHROME = 1 for our browser name). */
  deviceType: number;
}

type Stage = 'waiting' | 'requested' | 'submitted' | 'continued' | 'confirmed' | 'failed';

/**
 * The companion's side of WhatsApp's passkey linking on one socket (docs/passkey.md), on Baileys'
 * public primitives only (`query` for the IQs; the notifications come from baileys-passkey.ts).
 * One ceremony per socket, in order: request → assertion → continuation → confirmation; a step out
 * of order is refused, a failed one ends the ceremony (`passkey-failed`).
 *
 * The ADV secret the phone scanned is replaced in the creds the moment WhatsApp asks, as whatsmeow
 * does: Baileys checks pair-success's HMAC with `creds.advSecretKey`, so a pair-success signed with
 * the scanned secret (a link that skipped the ceremony) is refused from then on. Only the
 * encrypted pairing request carries the new secret to the phone. The creds are saved with it at
 * the confirmation; a ceremony that fails deletes them anyway.
 */
export class PasskeyCompanion {
  private stage: Stage = 'waiting';
  private handoff: { key: Buffer; at: number } | null = null;
  private nextAdvSecret: Buffer | null = null;
  private prologue: Prologue | null = null;
  private key: Buffer | null = null;

  constructor(
    private readonly socket: BaileysSocket,
    private readonly hooks: CompanionHooks,
  ) {}

  /** `passkey_prologue_request`: the handoff key from the scanned secret, a new secret aside. */
  requested(): void {
    if (this.stage !== 'waiting') return;
    const creds = this.hooks.creds();
    this.handoff = { key: handoffKey(Buffer.from(creds.advSecretKey, 'base64')), at: Date.now() };
    this.nextAdvSecret = randomBytes(32);
    creds.advSecretKey = this.nextAdvSecret.toString('base64');
    this.stage = 'requested';
  }

  /** The person's assertion: a ref, then `passkey_prologue` (with the handoff proof while it is fresh). */
  async assertion(assertion: ScanPasskeyAssertion): Promise<void> {
    if (this.stage !== 'requested') throw new PasskeyStepError(`no passkey assertion is expected now (${this.stage})`);
    this.stage = 'submitted';
    try {
      const ref = await this.ref();
      const prologue = buildPrologue(ref, this.hooks.deviceType);
      this.prologue = prologue;
      const content: BinaryNode[] = [
        { tag: 'credential_id', attrs: {}, content: Buffer.from(assertion.rawId, 'base64url') },
        { tag: 'webauthn_assertion', attrs: {}, content: Buffer.from(JSON.stringify(wireAssertion(assertion))) },
        { tag: 'prologue_payload', attrs: {}, content: prologue.payload },
      ];
      if (this.handoff && Date.now() - this.handoff.at < HANDOFF_VALID_MS) {
        content.push({ tag: 'pairing_handoff_proof', attrs: {}, content: handoffProof(this.handoff.key, prologue.payload) });
      }
      await this.iq('set', { tag: 'passkey_prologue', attrs: {}, content });
      this.handoff = null;
    } catch (error) {
      this.fail(`the passkey was not accepted: ${describe(error)}`);
      throw error;
    }
  }

  /** `crsc_continuation`: reveal the nonce, derive the pairing key and the code the phone shows. */
  async continued(node: BinaryNode): Promise<void> {
    const prologue = this.prologue;
    if (this.stage !== 'submitted' || !prologue) return;
    try {
      const raw = getBinaryNodeChild(node, 'primary_ephemeral_identity')?.content;
      if (!(raw instanceof Uint8Array)) throw new Error('the phone sent no ephemeral identity');
      const primary = proto.PrimaryEphemeralIdentity.decode(raw);
      const publicKey = primary.publicKey ?? new Uint8Array();
      const nonce = primary.nonce ?? new Uint8Array();
      if (publicKey.length !== 32 || nonce.length !== 32) throw new Error('the phone sent an ephemeral identity of the wrong size');
      await this.iq('set', { tag: 'companion_nonce', attrs: {}, content: prologue.nonce });
      this.key = pairingKey(prologue, publicKey);
      this.stage = 'continued';
      this.hooks.emit({ type: 'passkey-confirmation', code: confirmationCode(prologue.nonce, publicKey, nonce) });
    } catch (error) {
      this.fail(`the phone's answer to the passkey check could not be used: ${describe(error)}`);
    }
  }

  /** The person confirmed the code: the new secret into the creds, then the encrypted pairing request. */
  async confirm(): Promise<void> {
    const key = this.key;
    const advSecret = this.nextAdvSecret;
    if (this.stage !== 'continued' || !key || !advSecret) throw new PasskeyStepError(`nothing waits for a confirmation (${this.stage})`);
    this.stage = 'confirmed';
    try {
      const creds = this.hooks.creds();
      await this.hooks.saveCreds();
      const request = encryptPairingRequest(key, {
        noisePublic: creds.noiseKey.public,
        identityPublic: creds.signedIdentityKey.public,
        advSecret,
      });
      await this.iq('set', { tag: 'encrypted_pairing_request', attrs: {}, content: request });
    } catch (error) {
      this.fail(`the pairing request was not accepted: ${describe(error)}`);
      throw error;
    }
  }

  private fail(reason: string): void {
    if (this.stage === 'failed') return;
    this.stage = 'failed';
    this.hooks.emit({ type: 'passkey-failed', reason });
  }

  private async ref(): Promise<string> {
    const answer = await this.iq('get', { tag: 'ref', attrs: {} });
    const ref = getBinaryNodeChild(answer, 'ref')?.content;
    if (ref instanceof Uint8Array) return Buffer.from(ref).toString('utf8');
    if (typeof ref === 'string') return ref;
    throw new Error('WhatsApp answered the ref request without a ref');
  }

  private iq(type: 'get' | 'set', child: BinaryNode): Promise<BinaryNode> {
    if (!this.socket.query) throw new Error('this connection cannot send queries');
    // Baileys' query adds the id and rejects on an `<error>` answer.
    return this.socket.query({ tag: 'iq', attrs: { to: S_WHATSAPP_NET, type, xmlns: 'md' }, content: [child] });
  }
}

/** A step asked out of order: refused, and the ceremony goes on. */
export class PasskeyStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyStepError';
  }
}

/** Only the fields WhatsApp's own client sends (whatsmeow's WebAuthnResponse), `userHandle` null when absent. */
function wireAssertion(assertion: ScanPasskeyAssertion): ScanPasskeyAssertion {
  const { clientDataJSON, authenticatorData, signature, userHandle } = assertion.response;
  return {
    id: assertion.id,
    rawId: assertion.rawId,
    type: assertion.type,
    response: { clientDataJSON, authenticatorData, signature, userHandle: userHandle || null },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The platform type Baileys registers a companion named `browser` with (validate-connection.js). */
export function platformTypeOf(browser: readonly string[]): number {
  const name = (browser[1] ?? '').toUpperCase();
  if (name === 'ANDROID') return proto.DeviceProps.PlatformType.ANDROID_PHONE;
  const types = proto.DeviceProps.PlatformType as unknown as Record<string, number | undefined>;
  return types[name] ?? proto.DeviceProps.PlatformType.CHROME;
}
