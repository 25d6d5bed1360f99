// Linking beyond a plain QR scan: the phone entering a pairing code (link-code.ts), and WhatsApp's
// passkey gate (passkey-gate.ts) with, for accounts whose phone registered a passkey, the whole
// ceremony (passkey-ceremony.ts). A layer between SimulatorCore (state, protocol callbacks) and
// WhatsAppSimulator (the rest of the control API).
import type { DeviceConnection, RestartAfter } from './device-connection.js';
import { PASSKEY_STEPS, PasskeyCeremony, type PasskeyCeremonyState, type PasskeyStep, type RegisteredPasskey } from './passkey-ceremony.js';
import { PASSKEY_TIMEOUT_MS } from './passkey-gate.js';
import type { LinkedDevice } from './sim-model.js';
import { SimulatorCore, type SimulatorOptions } from './simulator-core.js';

export class SimulatorLinking extends SimulatorCore {
  /** Accounts behind WhatsApp's passkey check: their scans and codes get the passkey notifications. */
  protected readonly gated = new Set<string>();
  /** The passkey each account's phone registered, and each account's latest ceremony. */
  private readonly passkeys = new Map<string, RegisteredPasskey>();
  private readonly ceremonies = new Map<string, PasskeyCeremony>();
  private readonly passkeyTimeoutMs: number;

  protected constructor(options: SimulatorOptions) {
    super(options);
    this.passkeyTimeoutMs = options.passkeyTimeoutMs ?? PASSKEY_TIMEOUT_MS;
  }

  /**
   * Puts the account `phone` behind WhatsApp's passkey check (or takes it away with `false`): a
   * scan of its QR code, or its pairing code entered, then gets `passkey_prologue_request` and
   * `crsc_continuation` instead of pair-success (passkey-gate.ts), and rejects with
   * `PasskeyRequiredError`; once the account has a passkey (`registerPasskey`) it runs the ceremony.
   */
  gateAccount(phone: string, gated = true): void {
    if (gated) this.gated.add(phone);
    else this.gated.delete(phone);
  }

  isGated(phone: string): boolean {
    return this.gated.has(phone);
  }

  /**
   * The phone of `phone` created a passkey (rpId whatsapp.com): `id` is its credential id,
   * `publicKey` its P-256 key. A gated account's next scan or code then runs the ceremony
   * (passkey-ceremony.ts) and links only once the companion completed it.
   */
  registerPasskey(phone: string, passkey: RegisteredPasskey): void {
    const key = passkey.publicKey;
    if (key.type !== 'public' || key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      throw new Error('a passkey must have a P-256 (ES256) public key');
    }
    if (!passkey.id.length) throw new Error('a passkey needs a credential id');
    this.passkeys.set(phone, { id: Buffer.from(passkey.id), publicKey: key });
  }

  hasPasskey(phone: string): boolean {
    return this.passkeys.has(phone);
  }

  /** The state of the latest passkey ceremony of `phone`, or null when it never had one. */
  passkeyCeremony(phone: string): PasskeyCeremonyState | null {
    return this.ceremonies.get(phone)?.state() ?? null;
  }

  /** Sends the latest ceremony's client a pair-success as if the check had been skipped (`PasskeyCeremony.skipToPairing`). */
  pairSkippingPasskey(phone: string): Promise<void> {
    const ceremony = this.ceremonies.get(phone);
    if (!ceremony || ceremony.ended) throw new Error(`no passkey ceremony of ${phone} runs`);
    return ceremony.skipToPairing();
  }

  /** The code the phone shows in its latest ceremony (`XXXX-XXXX`), once the companion revealed its nonce. */
  passkeyCode(phone: string): string | null {
    return this.ceremonies.get(phone)?.code ?? null;
  }

  /**
   * Resolves once the latest ceremony of `phone` (now or a later one) reached `step`; rejects when
   * it ended without reaching it (with its `PasskeyCeremonyError` if it failed).
   */
  async waitForPasskeyStep(phone: string, step: PasskeyStep): Promise<void> {
    if (!PASSKEY_STEPS.includes(step)) throw new Error(`not a passkey step: ${String(step)}`);
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        const ceremony = this.ceremonies.get(phone);
        if (!ceremony || (!ceremony.steps.includes(step) && !ceremony.ended)) return;
        this.events.off('passkey', listener);
        if (ceremony.steps.includes(step)) resolve();
        else reject(ceremony.error ?? new Error(`the passkey ceremony of ${phone} ended (${ceremony.step}) without reaching ${step}`));
      };
      const listener = (event: { phone: string }): void => void (event.phone === phone && check());
      this.events.on('passkey', listener);
      check();
    });
  }

  /**
   * A gated account's scan or entered code: the passkey notifications at once without a passkey
   * (`PasskeyRequiredError`), else the ceremony, which resolves with the linked device.
   * `handoffSecret`: the ADV secret of the scanned QR (null on the code path).
   */
  protected passkeyCheck(conn: DeviceConnection, phone: string, handoffSecret: Buffer | null, restartAfter?: RestartAfter): Promise<LinkedDevice> {
    const passkey = this.passkeys.get(phone);
    if (!passkey) conn.askPasskey(phone);
    if (conn.passkey && !conn.passkey.ended) throw new Error(`a passkey ceremony already runs on this connection (${conn.passkey.phone})`);
    const ceremony = new PasskeyCeremony({
      conn,
      account: this.world.account(phone),
      passkey,
      handoffSecret,
      via: handoffSecret ? 'qr' : 'code',
      restartAfter,
      timeoutMs: this.passkeyTimeoutMs,
      onStep: (step) => this.events.emit('passkey', { phone, step }),
    });
    conn.passkey = ceremony;
    this.ceremonies.set(phone, ceremony);
    return ceremony.start();
  }

  /** Resolves once a registering client asked for a pairing code for `phone` (now or earlier). */
  async waitForPairingCode(phone: string): Promise<void> {
    if (this.codeConnection(phone)) return;
    await new Promise<void>((resolve) => {
      const listener = (asked: string): void => {
        if (asked !== phone) return;
        this.events.off('pairing-code', listener);
        resolve();
      };
      this.events.on('pairing-code', listener);
    });
  }

  /**
   * The phone of `phone` enters a pairing code (Linked devices → Link with phone number): resolves
   * with the new linked device once the client signed the pairing (as `scanQr`); rejects with
   * `WrongPairingCodeError` for a code that is not the client's (it may be typed again),
   * `PasskeyRequiredError` for a gated account without a passkey (`PasskeyCeremonyError` when its
   * ceremony fails), and when no client waits for a code for this number
   * (never asked, or its connection ended: the code expired).
   */
  async enterPairingCode(phone: string, code: string, options: { restartAfter?: RestartAfter } = {}): Promise<LinkedDevice> {
    const conn = this.codeConnection(phone);
    if (!conn) throw new Error(`no connected client waits for a pairing code for ${phone}`);
    const { restartAfter } = options;
    const ceremony = this.passkeys.has(phone) ? () => this.passkeyCheck(conn, phone, null, restartAfter) : undefined;
    return conn.enterCode(this.world.account(phone), code, { gated: this.gated.has(phone), ceremony, restartAfter });
  }

  private codeConnection(phone: string): DeviceConnection | undefined {
    return [...this.connections].find((c) => c.open && c.registration && c.codeHello?.phone === phone);
  }
}
