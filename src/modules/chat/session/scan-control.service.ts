import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { INVALID_PHONE } from '../../inbox/dto/phone-number.decorator.js';
import { normalizePhone } from '../../inbox/jid.js';
import { ControlTimeoutError, NoReceiverError, RemoteError, ScanControlBus } from './scan-control.bus.js';
import { ScanLeases } from './scan-leases.js';
import { NOT_HELD } from './scan-session.manager.js';
import { ALREADY_LINKED } from './scan-session.runner.js';
import { ScanSessionRepository } from './scan-session.repository.js';
import { sessionState } from './scan-sessions.service.js';
import type { ScanSessionState } from './scan-sessions.port.js';
import { ScanStateService, type ScanStatus } from './scan-state.service.js';

export const NO_WORKER = 'no worker process is running to hold the session; start one (ROLE=worker or all) and retry';
export const HOLDER_UNREACHABLE = 'the worker holding this session is not responding; retry in a few seconds';
export const NO_ANSWER = 'no worker answered in time; retry in a few seconds';
export const DISCONNECT_NO_ANSWER = 'the session could not be stopped: its worker did not answer; retry in a few seconds';

/** The answer of `POST /api/chat/pairing-code`. */
export interface PairingCodeAnswer {
  code: string;
  /** RFC 3339; null when the driver cannot tell. */
  expires_at: string | null;
}

// The holder answers after at most CHAT_CONNECT_WAIT_MS once it runs the request; this covers
// the trip through Redis, a claim's delay, the previous runner's end and a loaded machine's
// pauses (a 500 for a worker that is only slow is worse than a few seconds more).
const CONTROL_MARGIN_MS = 10_000;
const DISCONNECT_TIMEOUT_MS = 15_000;

/**
 * `POST /api/chat/connect`, `/pairing-code`, `/stop`, `/restart` and `/disconnect` from any
 * process: the durable wish goes to Postgres, the action to the worker that holds (or takes) the
 * workspace's lease, over the control bus.
 */
@Injectable()
export class ScanControlService {
  private readonly logger = new Logger(ScanControlService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly bus: ScanControlBus,
    private readonly leases: ScanLeases,
    private readonly rows: ScanSessionRepository,
    private readonly state: ScanStateService,
  ) {}

  async connect(workspaceId: string): Promise<ScanSessionState> {
    await this.want(workspaceId);
    return sessionState((await this.toHolderOrClaim(workspaceId, 'connect', null)) as ScanStatus);
  }

  /**
   * `POST /api/chat/pairing-code`: starts the session as connect does (a number that is not
   * linked registers) and asks for a code for `phone` instead of showing QR codes.
   */
  async pairingCode(workspaceId: string, phone: string | null | undefined): Promise<PairingCodeAnswer> {
    const digits = normalizePhone(phone);
    if (!digits) throw ApiError.badRequest(INVALID_PHONE);
    if ((await this.rows.find(workspaceId)).linked) throw new ApiError(409, ALREADY_LINKED);
    await this.want(workspaceId);
    return (await this.toHolderOrClaim(workspaceId, 'pairingCode', { phone: digits })) as PairingCodeAnswer;
  }

  /**
   * `POST /api/chat/stop`: the socket closes and nothing reconnects (this worker or any other)
   * until the next connect; the link and its keys stay. A session waiting for a scan or a code
   * drops the keys made for it, as its link never finished.
   */
  async stop(workspaceId: string): Promise<ScanSessionState> {
    // First, so that no worker resumes the session meanwhile.
    await this.state.change(workspaceId, () => this.rows.update(workspaceId, { desired: 'stopped', state: 'stopped', qrExpired: false, lastError: null }));
    return this.toHolder(workspaceId, 'stop', async () => sessionState(await this.state.read(workspaceId)));
  }

  /** `POST /api/chat/restart`: stop, then connect: a linked number comes back on its keys, without a QR code. */
  async restart(workspaceId: string): Promise<ScanSessionState> {
    await this.stop(workspaceId);
    return this.connect(workspaceId);
  }

  async disconnect(workspaceId: string): Promise<ScanSessionState> {
    // First, so that no worker resumes the session while it is being taken down.
    await this.rows.update(workspaceId, { desired: 'stopped' });
    return this.toHolder(workspaceId, 'disconnect', () => this.forget(workspaceId));
  }

  /** The wish to run (connect, pairing code): errors and the QR-expiry mark of the last run are cleared. */
  private async want(workspaceId: string): Promise<void> {
    await this.state.change(workspaceId, () =>
      this.rows.update(workspaceId, { desired: 'running', qrExpired: false, lastError: null, failures: 0, state: 'starting' }),
    );
  }

  /** Asks the holder, or with none every worker (one of them takes the lease), and answers its result. */
  private async toHolderOrClaim(workspaceId: string, op: 'connect' | 'pairingCode', args: unknown): Promise<unknown> {
    const holder = await this.leases.holder(workspaceId);
    const to = holder ? { holder: ScanLeases.processOf(holder) } : 'claim';
    try {
      return await this.bus.request(to, op, workspaceId, args, this.config.chat.connectWaitMs + CONTROL_MARGIN_MS);
    } catch (error) {
      if (error instanceof NoReceiverError) throw new ApiError(500, holder ? HOLDER_UNREACHABLE : NO_WORKER);
      if (error instanceof ControlTimeoutError) throw new ApiError(500, NO_ANSWER);
      if (error instanceof RemoteError && error.name === 'ScanConflictError') throw new ApiError(409, error.message);
      if (error instanceof RemoteError) throw new ApiError(500, error.message);
      throw error;
    }
  }

  /**
   * Stop or disconnect at the holder; when nobody holds the session (or the holder died with its
   * lease), `unheld` does what is left to do here.
   */
  private async toHolder(workspaceId: string, op: 'stop' | 'disconnect', unheld: () => Promise<ScanSessionState>): Promise<ScanSessionState> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const holder = await this.leases.holder(workspaceId);
      if (holder) {
        try {
          const status = await this.bus.request({ holder: ScanLeases.processOf(holder) }, op, workspaceId, null, DISCONNECT_TIMEOUT_MS);
          return sessionState(status as ScanStatus);
        } catch (error) {
          if (error instanceof ControlTimeoutError) throw new ApiError(500, DISCONNECT_NO_ANSWER);
          if (error instanceof RemoteError && error.name !== NOT_HELD) throw new ApiError(500, error.message);
          if (error instanceof RemoteError) continue; // its hold just ended: look again
          if (!(error instanceof NoReceiverError)) throw error;
          // The holder died with its lease still running: it has no socket any more, and the
          // session is no longer wanted, so nobody takes it over.
          this.logger.warn(`${op} of ${workspaceId}: holder ${holder} is gone, finishing here`);
          return unheld();
        }
      }
      if (op === 'stop') return unheld();
      // Nobody holds it: hold it ourselves while the keys are deleted, so no worker opens them.
      const token = ScanLeases.token(this.bus.processId);
      if (!(await this.leases.acquire(workspaceId, token, this.config.chat.leaseTtlMs))) continue;
      try {
        return await unheld();
      } finally {
        await this.leases.release(workspaceId, token);
      }
    }
    throw new ApiError(500, DISCONNECT_NO_ANSWER);
  }

  private async forget(workspaceId: string): Promise<ScanSessionState> {
    await this.state.change(workspaceId, () => this.state.forget(workspaceId));
    return sessionState(await this.state.read(workspaceId));
  }
}
