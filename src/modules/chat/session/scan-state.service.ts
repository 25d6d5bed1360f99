import { Inject, Injectable, Logger } from '@nestjs/common';
import { toDataURL } from 'qrcode';
import { AppConfig } from '../../../infra/config/app-config.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { LiveEventsService } from '../../events/live-events.service.js';
import { SCAN_AUTH_STORAGE, type ScanAuthStorageFactory } from '../driver/scan-driver.port.js';
import type { ScanSessionState } from './scan-sessions.port.js';
import { scanEndpoint, type ScanEndpoint } from './scan-endpoint.js';
import { type ScanLiveState, ScanLiveStateStore } from './scan-live-state.store.js';
import { ScanSessionRepository, type ScanSessionPatch, type ScanSessionRow } from './scan-session.repository.js';
import { isResting, PASSKEY_STATES, passkeyExplanation, type PasskeyState, type SessionStateName } from './session-state.js';
import { ScanStatusHooks } from './scan-status-hooks.js';
import { SyncProgressStore } from './sync-progress.store.js';

export const QR_CONNECT_FIRST = 'no QR code is waiting to be scanned: call POST /api/chat/connect first';
export const QR_EXPIRED = 'the previous QR code expired: call POST /api/chat/connect again for a new one';
export const QR_SCANNED =
  'no QR code is waiting to be scanned: the code was scanned and the number is being linked (GET /api/chat/status shows connected once it is done)';
export const QR_PAIRING_CODE =
  'no QR code is waiting to be scanned: a pairing code was asked for instead and waits to be entered on the phone (GET /api/chat/status shows state pairing_code until then)';

// qrcode sizes the PNG as floor(modules × (width / modules)), which floating point sometimes
// makes 255; any width in [256, 257) gives exactly the contract's 256 px.
const QR_WIDTH = 256.5;
const QR_MARGIN = 2;

/** The session state plus its named state, since when, and why it stopped when it stopped on an error. */
export interface ScanStatus extends ScanSessionState {
  state: SessionStateName;
  /** RFC 3339. */
  since: string;
  error?: string;
  /** Only during the passkey ceremony's states (docs/passkey.md). */
  passkey?: PasskeyStatus;
}

/** The passkey ceremony as the status shows it: what the person does now, the code, the deadline. */
export interface PasskeyStatus {
  state: PasskeyState;
  explanation: string;
  code: string | null;
  /** RFC 3339: when the ceremony gives up. */
  expires_at: string;
}

export interface QrState {
  code?: string;
  image: string;
  pending: boolean;
  /** RFC 3339: when the code shown stops being valid; only with a code, when the driver knows. */
  expires_at?: string;
  error?: string;
  message?: string;
}

/**
 * The session as every process sees it: the durable row (Postgres) plus the live state of the
 * holder (Redis). Every change goes through `change()`, which publishes `session.updated` when
 * what a client sees has changed.
 */
@Injectable()
export class ScanStateService {
  private readonly logger = new Logger(ScanStateService.name);
  private readonly endpoint: ScanEndpoint;

  constructor(
    private readonly rows: ScanSessionRepository,
    private readonly live: ScanLiveStateStore,
    private readonly events: LiveEventsService,
    private readonly sync: SyncProgressStore,
    private readonly statusHooks: ScanStatusHooks,
    @Inject(SCAN_AUTH_STORAGE) private readonly auth: ScanAuthStorageFactory,
    config: AppConfig,
  ) {
    this.endpoint = scanEndpoint(config);
  }

  async read(workspaceId: string): Promise<ScanStatus> {
    const [row, live] = await Promise.all([this.rows.find(workspaceId), this.live.read(workspaceId)]);
    return compose(row, live);
  }

  /**
   * The status of `GET /api/chat/status`. `endpoint` (the operator's WhatsApp address) is for the
   * Console's people only: an API key, which may belong to any integration of any tenant, gets the
   * state alone, as it always did.
   */
  async status(actor: WorkspaceActor): Promise<ScanStatus & { sync: { state: string; progress: number }; endpoint?: ScanEndpoint }> {
    const [state, sync] = await Promise.all([this.read(actor.workspaceId), this.sync.read(actor.workspaceId)]);
    const shown = { ...state, sync: { state: sync.state, progress: sync.progress } };
    return actor.via === 'session' ? { ...shown, endpoint: { ...this.endpoint } } : shown;
  }

  async qr(workspaceId: string): Promise<QrState> {
    const [row, live] = await Promise.all([this.rows.find(workspaceId), this.live.read(workspaceId)]);
    const linked = loggedIn(row, live);
    if (live.qr !== null && !linked) {
      const image = await toDataURL(live.qr, { type: 'image/png', width: QR_WIDTH, margin: QR_MARGIN });
      const state: QrState = { code: live.qr, image, pending: true };
      if (live.qrExpiresAt) state.expires_at = live.qrExpiresAt.toISOString();
      return state;
    }
    // A session that stopped before showing a code (WhatsApp unreachable) says why, not "expired";
    // one whose code was just scanned says so while the link is being finished.
    const text = row.linked
      ? QR_CONNECT_FIRST
      : linked
        ? QR_SCANNED
        : (row.lastError ?? (row.qrExpired ? QR_EXPIRED : row.desired === 'running' && live.state === 'pairing_code' ? QR_PAIRING_CODE : QR_CONNECT_FIRST));
    return { image: '', pending: false, error: text, message: text };
  }

  /**
   * Runs `work` and publishes `session.updated` if the state clients see changed; when the named
   * `state` itself changed, the state-change hooks run too (`session.status` webhooks).
   */
  async change<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
    const before = await this.read(workspaceId).catch(() => undefined);
    const result = await work();
    const after = await this.read(workspaceId);
    if (!before || !sameState(before, after)) await this.events.publish(workspaceId, 'session.updated', { ...after });
    if (!before || before.state !== after.state) await this.statusHooks.changed({ workspaceId, status: after, previous: before ?? null });
    return result;
  }

  /**
   * The number is no longer linked (logged out on the phone, or disconnected here): its auth
   * state is deleted and nothing resumes it until the next connect and scan. The caller holds
   * the workspace's lease, so no socket can be opened on the keys meanwhile. `patch.lastError`
   * says why when nobody here asked for it (the phone removed the device).
   */
  async forget(workspaceId: string, patch: ScanSessionPatch = {}): Promise<void> {
    await this.auth.forWorkspace(workspaceId).clear();
    await this.rows.update(workspaceId, {
      desired: 'stopped',
      linked: false,
      jid: null,
      qrExpired: false,
      lastError: null,
      failures: 0,
      state: patch.lastError ? 'logged_out' : 'stopped',
      ...patch,
    });
    await this.live.clear(workspaceId);
    await this.sync.reset(workspaceId).catch((error: unknown) => this.logger.warn(`sync state of ${workspaceId} not reset: ${String(error)}`));
  }
}

/**
 * Linked: durably (the row, since the first login), or scanned a moment ago and still linking (the
 * holder's live state, until that login).
 */
function loggedIn(row: ScanSessionRow, live: ScanLiveState): boolean {
  // A stop error is written (Postgres) a moment before the holder clears its live state (Redis).
  return row.linked || (Boolean(live.paired) && !row.lastError);
}

function compose(row: ScanSessionRow, live: ScanLiveState): ScanStatus {
  // A stop error is written (Postgres) a moment before the holder clears its live flag (Redis):
  // a session that stopped on an error is not connected, whichever store is read first.
  const linked = loggedIn(row, live);
  const { state: name, since } = named(row, live);
  const state: ScanStatus = {
    connected: live.connected && row.linked && !row.lastError,
    logged_in: linked,
    qr_pending: live.qr !== null && !linked,
    state: name,
    since: new Date(since).toISOString(),
  };
  if (row.linked && row.jid) state.jid = row.jid;
  else if (linked && live.pairedJid) state.jid = live.pairedJid;
  if (row.lastError) state.error = row.lastError;
  const ceremony = passkeyOf(name, live);
  if (ceremony) {
    state.passkey = ceremony;
    // A person must act: the status' `error` says what to do, as for the contract's other such states.
    state.error = ceremony.explanation;
  }
  return state;
}

function passkeyOf(name: SessionStateName, live: ScanLiveState): PasskeyStatus | null {
  const state = PASSKEY_STATES.find((s) => s === name);
  if (!state || !live.passkey) return null;
  const code = state === 'passkey_confirmation' ? live.passkey.code : null;
  return { state, explanation: passkeyExplanation(state, code), code, expires_at: live.passkey.expiresAt.toISOString() };
}

/**
 * The named state: how the row rests when the session is not wanted (a stop is written there
 * first, a moment before the holder clears its live state); else the holder's live state; else
 * (wanted, no holder yet or any more: connect on its way, a worker gone) starting or connecting.
 */
function named(row: ScanSessionRow, live: ScanLiveState): { state: SessionStateName; since: Date } {
  if (row.desired !== 'running') return { state: isResting(row.state) ? row.state : 'stopped', since: row.stateSince };
  const linking = row.linked || Boolean(live.paired);
  if (live.state) return { state: live.state === 'starting' && linking ? 'connecting' : live.state, since: live.since ?? row.stateSince };
  return { state: row.linked ? 'connecting' : 'starting', since: row.stateSince };
}

function sameState(a: ScanStatus, b: ScanStatus): boolean {
  return (
    a.connected === b.connected &&
    a.logged_in === b.logged_in &&
    a.qr_pending === b.qr_pending &&
    a.jid === b.jid &&
    a.error === b.error &&
    a.state === b.state &&
    a.passkey?.code === b.passkey?.code
  );
}
