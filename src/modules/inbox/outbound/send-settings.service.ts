import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { OutboundQueueRepository } from './outbound-queue.repository.js';
import { SendCapsRepository } from './send-caps.repository.js';
import { parseSettingsPatch, type SendSettings, settingsBody } from './send-settings.js';
import { SendSettingsRepository } from './send-settings.repository.js';

/** What a number has used of its caps, and its queue: `GET /api/chat/status`'s `limits`. */
export interface SendUsage {
  first_contacts: { used: number; cap: number; resets_at: string | null };
  unanswered: { cap: number; chats_at_cap: number };
  queue: { depth: number; oldest_queued_at: string | null };
}

export type SendSettingsBody = ReturnType<typeof settingsBody> & { defaults: ReturnType<typeof settingsBody>; usage: SendUsage };

/** A workspace's sending settings (docs/sending.md): its own, or the SEND_* defaults. */
@Injectable()
export class SendSettingsService {
  constructor(
    private readonly config: AppConfig,
    private readonly rows: SendSettingsRepository,
    private readonly caps: SendCapsRepository,
    private readonly queue: OutboundQueueRepository,
  ) {}

  async effective(workspaceId: string): Promise<SendSettings> {
    return (await this.rows.find(workspaceId)) ?? this.config.sendDefaults;
  }

  /** GET /api/chat/limits. */
  async read(workspaceId: string): Promise<SendSettingsBody> {
    return this.bodyOf(workspaceId, await this.effective(workspaceId));
  }

  /** PATCH /api/chat/limits: any subset of the settings, each within its bounds. */
  async update(workspaceId: string, body: unknown): Promise<SendSettingsBody> {
    const patch = parseSettingsPatch(body);
    return this.bodyOf(workspaceId, await this.rows.apply(workspaceId, this.config.sendDefaults, patch));
  }

  async usage(workspaceId: string, settings?: SendSettings): Promise<SendUsage> {
    const current = settings ?? (await this.effective(workspaceId));
    const [first, atCap, depth] = await Promise.all([
      this.caps.firstContacts(workspaceId),
      this.caps.chatsAtUnansweredCap(workspaceId, current.unansweredPerChat),
      this.queue.depth(workspaceId),
    ]);
    return {
      first_contacts: { used: first.used, cap: current.firstContactsPerDay, resets_at: first.resetsAt?.toISOString() ?? null },
      unanswered: { cap: current.unansweredPerChat, chats_at_cap: atCap },
      queue: { depth: depth.depth, oldest_queued_at: depth.oldestQueuedAt?.toISOString() ?? null },
    };
  }

  private async bodyOf(workspaceId: string, settings: SendSettings): Promise<SendSettingsBody> {
    return { ...settingsBody(settings), defaults: settingsBody(this.config.sendDefaults), usage: await this.usage(workspaceId, settings) };
  }
}
