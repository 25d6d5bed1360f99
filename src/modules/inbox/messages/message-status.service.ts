import { Injectable } from '@nestjs/common';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { MessageEntity, MessageStatus } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { MessageRepository } from './message.repository.js';

/** Delivery receipts and edits from the channels (Baileys acks and edits, Cloud API status webhooks). */
@Injectable()
export class MessageStatusService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly events: InboxEvents,
    private readonly changes: InboxChangeHooks,
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

  /** The sender edited a message: its new text (or caption) replaces the stored one. Null when unknown. */
  async applyEdit(workspaceId: string, channel: ChannelName, externalId: string, content: string): Promise<MessageEntity | null> {
    const edited = await this.changes.apply(
      workspaceId,
      'message.edited',
      (tx) => this.messages.setContentByExternalId(workspaceId, channel, externalId, content, tx),
      (stored) => stored && { kind: 'message.edited', message: stored.message, conversation: stored.conversation },
    );
    if (!edited) return null;
    await this.events.messageUpdated(workspaceId, edited.message, edited.conversation);
    return edited.message;
  }
}
