import { Injectable } from '@nestjs/common';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { SendSettingsService, type SendUsage } from '../../inbox/outbound/send-settings.service.js';
import { type NumberPlacement, PlacementService } from '../placement/placement.service.js';
import { ScanLeases } from './scan-leases.js';
import { ScanStateService } from './scan-state.service.js';

/**
 * `GET /api/chat/status`: the session's state, what the number used of its caps and its
 * outbound queue (`limits`, docs/sending.md), so one poll tells whether the number is at risk,
 * and where it lives among the workers (`placement`, docs/operations.md).
 */
@Injectable()
export class ChatStatusService {
  constructor(
    private readonly state: ScanStateService,
    private readonly sending: SendSettingsService,
    private readonly placement: PlacementService,
    private readonly leases: ScanLeases,
  ) {}

  async status(actor: WorkspaceActor): Promise<Awaited<ReturnType<ScanStateService['status']>> & { limits: SendUsage; placement: NumberPlacement | null }> {
    const [status, limits, holder] = await Promise.all([
      this.state.status(actor),
      this.sending.usage(actor.workspaceId),
      this.leases.holder(actor.workspaceId),
    ]);
    return { ...status, limits, placement: await this.placement.of(actor.workspaceId, holder) };
  }
}
