import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { ControlTimeoutError, NoReceiverError, RemoteError, ScanControlBus } from './scan-control.bus.js';
import { ScanLeases } from './scan-leases.js';
import { NOT_HELD } from './scan-session.manager.js';
import { ScanSessionRepository } from './scan-session.repository.js';
import { sessionState } from './scan-sessions.service.js';
import type { ScanSessionState } from './scan-sessions.port.js';
import { ScanStateService, type ScanStatus } from './scan-state.service.js';

export const NO_WORKER = 'no worker process is running to hold the session; start one (ROLE=worker or all) and retry';
export const HOLDER_UNREACHABLE = 'the worker holding this session is not responding; retry in a few seconds';
export const NO_ANSWER = 'no worker answered in time; retry in a few seconds';
export const DISCONNECT_NO_ANSWER = 'the session could not be stopped: its worker did not answer; retry in a few seconds';

// The holder answers after at most CHAT_CONNECT_WAIT_MS; this covers the trip through Redis.
const CONTROL_MARGIN_MS = 3_000;
const DISCONNECT_TIMEOUT_MS = 15_000;

/**
 * `POST /api/chat/connect` and `/disconnect` from any process: the durable wish goes to Postgres,
 * the action to the worker that holds (or takes) the workspace's lease, over the control bus.
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
    await this.state.change(workspaceId, () => this.rows.update(workspaceId, { desired: 'running', qrExpired: false, lastError: null, failures: 0 }));
    const holder = await this.leases.holder(workspaceId);
    const to = holder ? { holder: ScanLeases.processOf(holder) } : 'claim';
    try {
      const status = await this.bus.request(to, 'connect', workspaceId, null, this.config.chat.connectWaitMs + CONTROL_MARGIN_MS);
      return sessionState(status as ScanStatus);
    } catch (error) {
      if (error instanceof NoReceiverError) throw new ApiError(500, holder ? HOLDER_UNREACHABLE : NO_WORKER);
      if (error instanceof ControlTimeoutError) throw new ApiError(500, NO_ANSWER);
      if (error instanceof RemoteError) throw new ApiError(500, error.message);
      throw error;
    }
  }

  async disconnect(workspaceId: string): Promise<ScanSessionState> {
    // First, so that no worker resumes the session while it is being taken down.
    await this.rows.update(workspaceId, { desired: 'stopped' });
    for (let attempt = 0; attempt < 3; attempt++) {
      const holder = await this.leases.holder(workspaceId);
      if (holder) {
        try {
          const status = await this.bus.request({ holder: ScanLeases.processOf(holder) }, 'disconnect', workspaceId, null, DISCONNECT_TIMEOUT_MS);
          return sessionState(status as ScanStatus);
        } catch (error) {
          if (error instanceof ControlTimeoutError) throw new ApiError(500, DISCONNECT_NO_ANSWER);
          if (error instanceof RemoteError && error.name !== NOT_HELD) throw new ApiError(500, error.message);
          if (error instanceof RemoteError) continue; // its hold just ended: look again
          if (!(error instanceof NoReceiverError)) throw error;
          // The holder died with its lease still running: it has no socket any more, and the
          // session is no longer wanted, so nobody takes it over; the keys can go now.
          this.logger.warn(`disconnect of ${workspaceId}: holder ${holder} is gone, unlinking here`);
          return this.forget(workspaceId);
        }
      }
      // Nobody holds it: hold it ourselves while the keys are deleted, so no worker opens them.
      const token = ScanLeases.token(this.bus.processId);
      if (!(await this.leases.acquire(workspaceId, token, this.config.chat.leaseTtlMs))) continue;
      try {
        return await this.forget(workspaceId);
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
