import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import type { ScanPasskeyAssertion } from '../driver/scan-driver.port.js';
import { ControlTimeoutError, NoReceiverError, RemoteError, ScanControlBus } from '../session/scan-control.bus.js';
import { HOLDER_UNREACHABLE, NO_ANSWER } from '../session/scan-control.service.js';
import { ScanLeases } from '../session/scan-leases.js';
import { ScanLiveStateStore } from '../session/scan-live-state.store.js';
import { NO_CEREMONY, type PasskeyChallenge, type PasskeyStep, STALE_LINK } from '../session/scan-session-passkey.js';
import type { PasskeyAssertionDto } from './dto/passkey.dto.js';
import { PasskeyLinksStore } from './passkey-links.store.js';

export const CEREMONY_OFF = 'the passkey ceremony is off on this service (CHAT_PASSKEY_CEREMONY)';
export const LINK_MISSING = 'passkey link missing';
export const LINK_INVALID = 'invalid passkey link';
export const LINK_EXPIRED = 'passkey link expired: open WhatsApp Web from the Console again';
export const LINK_USED = 'passkey link already used';
export const LINK_OTHER_WORKSPACE = 'passkey link belongs to a different workspace';
export const INVALID_WORKSPACE = 'invalid workspace id';

/** WhatsApp's own site: the one origin where a browser may use the account's passkey (rpId whatsapp.com). */
export const WHATSAPP_WEB = 'https://web.whatsapp.com/';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// An assertion waits for two IQs (ref, prologue), a confirmation for one; Baileys gives each 60 s.
const STEP_TIMEOUT_MS = 130_000;
export const ASSERTION_SENT = 'the passkey went to WhatsApp already: wait for the phone, then confirm its code (POST /api/chat/passkey/confirm)';

/** A 400 the holder's checks gave before anything reached WhatsApp (the link stays usable). */
class RetryableAssertion extends ApiError {}

/**
 * The passkey ceremony's routes (docs/passkey.md#routes) from any process: one-time links for the
 * extension (Redis), and each step at the worker holding the socket, over the control bus.
 */
@Injectable()
export class PasskeyCeremonyService {
  constructor(
    private readonly config: AppConfig,
    private readonly bus: ScanControlBus,
    private readonly leases: ScanLeases,
    private readonly live: ScanLiveStateStore,
    private readonly links: PasskeyLinksStore,
  ) {}

  /** `POST /api/chat/passkey/link`: a one-time link for the ceremony waiting for an assertion. */
  async link(workspaceId: string): Promise<{ url: string; expires_at: string }> {
    if (!this.config.chat.passkey.ceremony) throw new ApiError(409, CEREMONY_OFF);
    const live = await this.live.read(workspaceId);
    if (!live.passkey) throw new ApiError(409, NO_CEREMONY);
    if (live.passkey.submitted) throw new ApiError(409, ASSERTION_SENT);
    if (live.state !== 'passkey_required' && live.state !== 'passkey_assertion') throw new ApiError(409, NO_CEREMONY);
    const ttl = Math.min(this.config.chat.passkey.linkTtlMs, live.passkey.expiresAt.getTime() - Date.now());
    if (ttl <= 0) throw new ApiError(409, NO_CEREMONY);
    const { token, expiresAt } = await this.links.issue(workspaceId, live.passkey.id, ttl);
    const payload = Buffer.from(JSON.stringify({ v: 1, api: this.config.publicUrl, workspace_id: workspaceId, token })).toString('base64url');
    return { url: `${WHATSAPP_WEB}#svc-passkey=${payload}`, expires_at: expiresAt.toISOString() };
  }

  /** `GET …/{workspace_id}/challenge`: WhatsApp's request options, for the person's browser. */
  async challenge(id: string, token: string | undefined): Promise<{ workspace_id: string; options: Record<string, unknown>; expires_at: string }> {
    const workspaceId = id.toLowerCase();
    const link = await this.checkLink(workspaceId, token);
    const challenge = (await this.ask(workspaceId, { step: 'challenge', ceremonyId: link.ceremonyId })) as PasskeyChallenge;
    const expiresAt = Math.min(link.expiresAt, Date.parse(challenge.expiresAt));
    return { workspace_id: workspaceId, options: { ...challenge.options }, expires_at: new Date(expiresAt).toISOString() };
  }

  /** `POST …/{workspace_id}/assertion`: checked at the holder, then sent on to WhatsApp; the link is used up. */
  async assertion(id: string, token: string | undefined, dto: PasskeyAssertionDto): Promise<{ state: string }> {
    const workspaceId = id.toLowerCase();
    const link = await this.checkLink(workspaceId, token);
    if (!(await this.links.use(token!))) throw ApiError.unauthorized(LINK_USED);
    const { response } = dto;
    const assertion: ScanPasskeyAssertion = {
      id: dto.id,
      rawId: dto.rawId,
      type: dto.type,
      response: {
        clientDataJSON: response.clientDataJSON,
        authenticatorData: response.authenticatorData,
        signature: response.signature,
        userHandle: response.userHandle ?? null,
      },
    };
    try {
      return (await this.ask(workspaceId, { step: 'assertion', ceremonyId: link.ceremonyId, assertion })) as { state: string };
    } catch (error) {
      // Refused by the holder's checks before anything reached WhatsApp: the link may try again.
      if (error instanceof RetryableAssertion) await this.links.release(token!);
      throw error;
    }
  }

  /** `POST /api/chat/passkey/confirm`: the person compared the codes. */
  async confirm(workspaceId: string, code: string | undefined): Promise<{ state: string }> {
    return (await this.ask(workspaceId, { step: 'confirm', code: code ?? null })) as { state: string };
  }

  private async checkLink(workspaceId: string, token: string | undefined): Promise<{ ceremonyId: string; expiresAt: number }> {
    if (!UUID.test(workspaceId)) throw ApiError.badRequest(INVALID_WORKSPACE);
    if (!token) throw ApiError.unauthorized(LINK_MISSING);
    const found = await this.links.find(token);
    if (!found.found) throw ApiError.unauthorized(LINK_INVALID);
    const { link, current } = found;
    if (link.workspaceId !== workspaceId) throw ApiError.forbidden(LINK_OTHER_WORKSPACE);
    if (!current) throw ApiError.unauthorized(LINK_INVALID);
    if (link.used) throw ApiError.unauthorized(LINK_USED);
    if (link.expiresAt <= Date.now()) throw ApiError.unauthorized(LINK_EXPIRED);
    return link;
  }

  private async ask(workspaceId: string, step: PasskeyStep): Promise<unknown> {
    const holder = await this.leases.holder(workspaceId);
    if (!holder) throw new ApiError(409, NO_CEREMONY);
    try {
      return await this.bus.request({ holder: ScanLeases.processOf(holder) }, 'passkey', workspaceId, step, STEP_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof NoReceiverError) throw new ApiError(500, HOLDER_UNREACHABLE);
      if (error instanceof ControlTimeoutError) throw new ApiError(500, NO_ANSWER);
      if (error instanceof RemoteError && error.name === 'PasskeyInputError') throw new RetryableAssertion(400, error.message);
      if (error instanceof RemoteError && error.name === 'PasskeyRefusedError') throw ApiError.badRequest(error.message);
      if (error instanceof RemoteError && error.name === 'PasskeyConflictError' && error.message === STALE_LINK) throw ApiError.unauthorized(LINK_INVALID);
      if (error instanceof RemoteError && (error.name === 'PasskeyConflictError' || error.name === 'ScanNotConnectedError')) {
        throw new ApiError(409, error.name === 'PasskeyConflictError' ? error.message : NO_CEREMONY);
      }
      if (error instanceof RemoteError) throw new ApiError(500, error.message);
      throw error;
    }
  }
}
