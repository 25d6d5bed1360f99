import { Injectable } from '@nestjs/common';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { SendSettingsService, type SendUsage } from '../../inbox/outbound/send-settings.service.js';
import { ScanStateService } from './scan-state.service.js';

/**
 * `GET /api/chat/status`: the session's state, and what the number used of its caps and its
 * outbound queue (`limits`, docs/sending.md), so one poll tells whether the number is at risk.
 */
@Injectable()
export class ChatStatusService {
  constructor(
    private readonly state: ScanStateService,
    private readonly sending: SendSettingsService,
  ) {}

  async status(actor: WorkspaceActor): Promise<Awaited<ReturnType<ScanStateService['status']>> & { limits: SendUsage }> {
    const [status, limits] = await Promise.all([this.state.status(actor), this.sending.usage(actor.workspaceId)]);
    return { ...status, limits };
  }
}
