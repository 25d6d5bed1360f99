import { Injectable } from '@nestjs/common';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { MessageEntity, MessageStatus } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { MessageRepository } from './message.repository.js';

/** Delivery receipts from the channels (Baileys acks, Cloud API status webhooks); edits: MessageUpdatesService. */
@Injectable()
export class MessageStatusService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly events: InboxEvents,
  ) {}

  /**
   * Moves a message forward (see `ALLOWED_FROM`); a receipt that would move it back, or for an
   * unknown message, changes nothing and returns null. `error` is kept only with `failed`.
   */
  async updateStatus(workspaceId: string, channel: ChannelName, externalId: string, status: MessageStatus, error?: string): Promise<MessageEntity | null> {
    const updated = await this.messages.setStatusByExternalId(workspaceId, channel, externalId, status, status === 'failed' ? (error ?? 'failed') : null);
    if (updated) await this.events.messageUpdated(workspaceId, updated);
    return updated;
  }
}
