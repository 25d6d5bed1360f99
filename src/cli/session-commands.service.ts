import { Injectable } from '@nestjs/common';
import { ApiError } from '../infra/http/api-error.js';
import { PlacementService } from '../modules/chat/placement/placement.service.js';
import { ScanControlService } from '../modules/chat/session/scan-control.service.js';
import { ScanLeases } from '../modules/chat/session/scan-leases.js';
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
    private readonly placements: PlacementService,
    private readonly leases: ScanLeases,
  ) {}

  /**
   * `placement`: the live workers (cap, sockets held, leaving), and for every linked number the
   * worker holding it, its home, and whether it is moving (held elsewhere than its home, or by
   * nobody while it has one).
   */
  async placement(): Promise<PlacementReport> {
    const { workers, plan } = await this.placements.view();
    const numbers = await Promise.all(
      [...plan].map(async ([workspaceId, home]) => {
        const token = await this.leases.holder(workspaceId);
        const holder = token ? ScanLeases.processOf(token) : null;
        return { workspace_id: workspaceId, holder, home, moving: home !== null && holder !== home };
      }),
    );
    return {
      workers: workers.map((worker) => ({ id: worker.id, capacity: worker.capacity, held: worker.held, leaving: worker.leaving })),
      numbers,
      moving: numbers.filter((number) => number.moving).length,
      unplaced: numbers.filter((number) => number.home === null).length,
    };
  }

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

export interface PlacementReport {
  workers: { id: string; capacity: number; held: number; leaving: boolean }[];
  numbers: { workspace_id: string; holder: string | null; home: string | null; moving: boolean }[];
  moving: number;
  unplaced: number;
}
