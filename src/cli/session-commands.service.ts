import { Injectable } from '@nestjs/common';
import { ApiError } from '../infra/http/api-error.js';
import { ScanControlService } from '../modules/chat/session/scan-control.service.js';
import { ScanStateService, type ScanStatus } from '../modules/chat/session/scan-state.service.js';
import { WorkspaceRepository } from '../modules/tenants/workspaces/workspace.repository.js';
import { OperatorError } from './operator.service.js';

/**
 * `npm run cli -- session-status|session-stop|session-restart <workspace_id>`: the scan session's
 * controls of the Console (`POST /api/chat/stop`, `/restart`), for an operator's scripts. They go
 * the same way (the durable wish in Postgres, the worker holding the socket over the control bus),
 * so a worker must be running for a restart, as for the Console's.
 */
@Injectable()
export class SessionCommands {
  constructor(
    private readonly control: ScanControlService,
    private readonly state: ScanStateService,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  async status(workspaceId: string): Promise<ScanStatus> {
    await this.existing(workspaceId);
    return this.state.read(workspaceId);
  }

  /** Closes the socket, keeps the link and its keys; nothing reconnects until a connect or restart. */
  async stop(workspaceId: string): Promise<ScanStatus> {
    await this.existing(workspaceId);
    await this.service(() => this.control.stop(workspaceId));
    return this.state.read(workspaceId);
  }

  /** Stop, then connect: a linked number reconnects on its keys, without a QR code. */
  async restart(workspaceId: string): Promise<ScanStatus> {
    await this.existing(workspaceId);
    await this.service(() => this.control.restart(workspaceId));
    return this.state.read(workspaceId);
  }

  private async existing(workspaceId: string): Promise<void> {
    if (!(await this.workspaces.find(workspaceId))) throw new OperatorError(`workspace not found: ${workspaceId}`);
  }

  /** The API's refusals (no worker running, the holder did not answer) are the operator's to fix. */
  private async service(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof ApiError) throw new OperatorError(error.text);
      throw error;
    }
  }
}
