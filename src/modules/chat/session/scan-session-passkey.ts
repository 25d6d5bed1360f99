import { randomUUID } from 'node:crypto';
import type { ScanEvent, ScanPasskeyAssertion, ScanPasskeyOptions } from '../driver/scan-driver.port.js';
import { ScanSessionEnds } from './scan-session-ends.js';
import { checkAssertion } from './passkey-assertion.check.js';
import { PASSKEY_CODE_MISMATCH_ERROR, PASSKEY_REQUIRED_ERROR, PASSKEY_TIMEOUT_ERROR, passkeyRefusedError, type PasskeyState } from './session-state.js';

/** The ceremony a session runs while WhatsApp's passkey check is on (docs/passkey.md). */
export interface PasskeyCeremony {
  /** Binds one-time links to this ceremony: a link of an earlier one is worthless. */
  id: string;
  options: ScanPasskeyOptions;
  /** `confirmed`: the pairing request went; pair-success and the restart follow (status `connecting`). */
  state: PasskeyState | 'confirmed';
  code: string | null;
  expiresAt: Date;
  timer: NodeJS.Timeout;
  /** The assertion went to WhatsApp: nothing more is taken from the browser. */
  submitted: boolean;
}

/** One step asked of the holder over the control bus (`passkey` op). */
export type PasskeyStep =
  | { step: 'challenge'; ceremonyId: string }
  | { step: 'assertion'; ceremonyId: string; assertion: ScanPasskeyAssertion }
  | { step: 'confirm'; code?: string | null };

/** What the challenge step answers the extension. */
export interface PasskeyChallenge {
  ceremonyId: string;
  options: ScanPasskeyOptions;
  expiresAt: string;
}

/** The step does not fit the ceremony's state (409). */
export class PasskeyConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyConflictError';
  }
}

/** What the browser sent is wrong (400); the ceremony goes on, and the same link may try again. */
export class PasskeyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyInputError';
  }
}

/** WhatsApp refused a step, or the code did not match (400): the ceremony ended with it. */
export class PasskeyRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyRefusedError';
  }
}

/** How long WhatsApp may take to pair once the code was confirmed. */
export const PAIR_AFTER_CONFIRM_MS = 60_000;
/** A link of an earlier ceremony (the holder checks the id the link was made for). */
export const STALE_LINK = 'invalid passkey link';

type PasskeyEvent = Extract<ScanEvent, { type: 'passkey' | 'passkey-confirmation' | 'passkey-failed' }>;
const PASSKEY_EVENTS: ReadonlySet<ScanEvent['type']> = new Set(['passkey', 'passkey-confirmation', 'passkey-failed']);
export const isPasskeyEvent = (event: ScanEvent): event is PasskeyEvent => PASSKEY_EVENTS.has(event.type);

export const NO_CEREMONY = 'no passkey check is running for this number';
const NOT_NOW = (state: string, wanted: string): string => `the passkey check is at ${state}, not waiting for ${wanted}`;

const normalCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();

/**
 * The passkey ceremony's half of a session runner: WhatsApp's request starts it (the socket stays
 * open, no reconnect), the person's browser fetches the challenge and posts the assertion, the
 * phone's answer gives the code, the person confirms, and pair-success ends it as after a scan.
 * Anything that fails on the way stops the session with the reason and drops the keys made for
 * the link (`stop` on a session that never linked).
 */
export abstract class ScanSessionPasskey extends ScanSessionEnds {
  /** The holder's answer to one ceremony step (the `passkey` control op). */
  async passkeyStep(step: PasskeyStep): Promise<unknown> {
    const ceremony = this.ceremony;
    if (!ceremony || this.finished || !this.socket?.passkey) throw new PasskeyConflictError(NO_CEREMONY);
    if (step.step !== 'confirm' && step.ceremonyId !== ceremony.id) throw new PasskeyConflictError(STALE_LINK);
    if (step.step === 'challenge') return this.challenge(ceremony);
    if (step.step === 'assertion') return this.assertion(ceremony, step.assertion);
    return this.confirm(ceremony, step.code ?? null);
  }

  /** The driver's passkey events: WhatsApp's check (the ceremony, or the gate), the phone's code, a failure. */
  protected onPasskey(event: PasskeyEvent): Promise<void> {
    if (event.type === 'passkey-confirmation') return this.passkeyConfirmation(event.code);
    if (event.type === 'passkey-failed') return this.passkeyFailed(event.reason);
    if (event.request && this.ctx.config.passkey.ceremony) {
      if (!this.ceremony) return this.passkeyRequested(event);
      // WhatsApp asked again before anything was sent: its newest challenge is the one to sign.
      if (!this.ceremony.submitted) this.ceremony.options = event.request;
      return Promise.resolve();
    }
    return this.passkeyGate(event);
  }

  /**
   * Pair-success came: only a confirmed ceremony may end that way (the driver replaced the scanned
   * ADV secret, so WhatsApp could only sign with the one the pairing request carried). Anything
   * else is a link that skipped the check: refused, the session stops and its keys go.
   */
  protected ceremonyPaired(): boolean {
    const ceremony = this.ceremony;
    if (!ceremony) return true;
    clearTimeout(ceremony.timer);
    if (ceremony.state === 'confirmed') {
      this.ceremony = null;
      return true;
    }
    void this.ceremonyEnds(passkeyRefusedError('WhatsApp paired the device before the passkey check was confirmed'));
    return false;
  }

  /**
   * WhatsApp answered the scan (or the entered code) with its passkey check: nothing can be linked
   * here, so the socket goes (no more codes), nothing retries, the keys made for this link are
   * deleted, and the status says what WhatsApp asks for and what the person can do.
   */
  private passkeyGate(event: Extract<ScanEvent, { type: 'passkey' }>): Promise<void> {
    const { workspaceId } = this.ctx;
    // The ceremony's own socket reports nothing more of the gate (its companion takes over).
    if (this.ceremony) return Promise.resolve();
    const socket = this.socket;
    this.ctx.logger.warn(
      `scan session ${workspaceId}: WhatsApp asks for a passkey check (${event.notification}, rpId ${event.rpId ?? 'not given'}) instead of pairing; ` +
        'the link stopped and its keys were deleted',
    );
    // The socket closes once that is written: on the pairing-code path Baileys acknowledges the
    // notifications itself, a few steps after the driver heard of them.
    return this.ends(this.forgetNow(PASSKEY_REQUIRED_ERROR, 'passkey_required', socket));
  }

  /** WhatsApp's request with its options: the ceremony starts (CHAT_PASSKEY_CEREMONY). */
  private async passkeyRequested(event: Extract<ScanEvent, { type: 'passkey' }>): Promise<void> {
    const { workspaceId, config } = this.ctx;
    const options = event.request!;
    const ms = Math.min(config.passkey.timeoutMs, options.timeout && options.timeout > 0 ? options.timeout : Infinity);
    this.qr = null;
    this.qrExpiresAt = null;
    this.pairing = null;
    this.ceremony = {
      id: randomUUID(),
      options,
      state: 'passkey_required',
      code: null,
      expiresAt: new Date(Date.now() + ms),
      timer: setTimeout(() => void this.ceremonyEnds(PASSKEY_TIMEOUT_ERROR), ms),
      submitted: false,
    };
    this.ctx.logger.warn(`scan session ${workspaceId}: WhatsApp asks for a passkey check (rpId ${options.rpId}); waiting for the person's browser`);
    await this.writeCeremony(this.ceremony);
  }

  /** The phone answered: the code it shows, for the person to compare. */
  private async passkeyConfirmation(code: string): Promise<void> {
    const ceremony = this.ceremony;
    if (!ceremony || !ceremony.submitted || ceremony.state === 'confirmed') return;
    ceremony.state = 'passkey_confirmation';
    ceremony.code = code;
    await this.writeCeremony(ceremony);
  }

  /** The driver gave up on the ceremony (WhatsApp refused a step, the phone's answer was unusable). */
  private passkeyFailed(reason: string): Promise<void> {
    return this.ceremonyEnds(passkeyRefusedError(reason));
  }

  /** The ceremony is over without a link: the session stops with `error`, the link's keys go. */
  protected ceremonyEnds(error: string): Promise<void> {
    if (this.finished || !this.ceremony) return Promise.resolve();
    this.ctx.logger.warn(`scan session ${this.ctx.workspaceId}: the passkey check ended without a link: ${error}`);
    return this.stop({ lastError: error });
  }

  /** The live state, while `ceremony` is still this session's (a stop may have come meanwhile). */
  private async writeCeremony(ceremony: PasskeyCeremony): Promise<void> {
    if (this.ceremony !== ceremony || this.finished) return;
    await this.ctx.state.change(this.ctx.workspaceId, () => (this.ceremony === ceremony && !this.finished ? this.writeLive() : Promise.resolve()));
  }

  private async challenge(ceremony: PasskeyCeremony): Promise<PasskeyChallenge> {
    if (ceremony.submitted || (ceremony.state !== 'passkey_required' && ceremony.state !== 'passkey_assertion')) {
      throw new PasskeyConflictError(NOT_NOW(ceremony.submitted ? 'the phone' : ceremony.state, 'the passkey'));
    }
    if (ceremony.state === 'passkey_required') {
      ceremony.state = 'passkey_assertion';
      await this.writeCeremony(ceremony);
    }
    return { ceremonyId: ceremony.id, options: ceremony.options, expiresAt: ceremony.expiresAt.toISOString() };
  }

  private async assertion(ceremony: PasskeyCeremony, assertion: ScanPasskeyAssertion): Promise<{ state: string }> {
    // A second post (a retry after a timeout, another tab) never ends a ceremony under way.
    if (ceremony.submitted || (ceremony.state !== 'passkey_required' && ceremony.state !== 'passkey_assertion')) {
      throw new PasskeyConflictError(NOT_NOW(ceremony.submitted ? 'the phone' : ceremony.state, 'the passkey'));
    }
    // Wrong shape or challenge: refused here, and the person may try again with the same link.
    const problem = checkAssertion(assertion, ceremony.options);
    if (problem) throw new PasskeyInputError(problem);
    const socket = this.socket!;
    ceremony.submitted = true;
    ceremony.state = 'passkey_assertion';
    await this.writeCeremony(ceremony);
    try {
      await socket.passkey!.assertion(assertion);
    } catch (error) {
      // WhatsApp refused it: the driver reported the failure, and the session stops on it.
      const text = passkeyRefusedError(`the passkey was not accepted: ${error instanceof Error ? error.message : String(error)}`);
      await this.ceremonyEnds(text);
      throw new PasskeyRefusedError(text);
    }
    return { state: ceremony.state };
  }

  private async confirm(ceremony: PasskeyCeremony, code: string | null): Promise<{ state: string }> {
    if (ceremony.state !== 'passkey_confirmation' || !ceremony.code) throw new PasskeyConflictError(NOT_NOW(ceremony.state, 'a confirmation'));
    if (code !== null && normalCode(code) !== normalCode(ceremony.code)) {
      await this.ceremonyEnds(PASSKEY_CODE_MISMATCH_ERROR);
      throw new PasskeyRefusedError(PASSKEY_CODE_MISMATCH_ERROR);
    }
    ceremony.state = 'confirmed';
    // The ceremony's deadline no longer applies (it would delete the keys while WhatsApp pairs);
    // pair-success has its own, shorter one.
    clearTimeout(ceremony.timer);
    ceremony.timer = setTimeout(
      () => void this.ceremonyEnds(passkeyRefusedError('WhatsApp did not pair the device after the confirmation')),
      PAIR_AFTER_CONFIRM_MS,
    );
    await this.writeCeremony(ceremony);
    try {
      await this.socket!.passkey!.confirm();
    } catch (error) {
      const text = passkeyRefusedError(`the pairing request was not accepted: ${error instanceof Error ? error.message : String(error)}`);
      await this.ceremonyEnds(text);
      throw new PasskeyRefusedError(text);
    }
    this.ctx.logger.log(`scan session ${this.ctx.workspaceId}: the passkey check was confirmed; WhatsApp pairs the device`);
    return { state: 'connecting' };
  }
}
