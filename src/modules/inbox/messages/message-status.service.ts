import { Injectable } from '@nestjs/common';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { MessageEntity, MessageStatus } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { MessageRepository } from './message.repository.js';

/** A receipt's status: `played` (a voice note, audio or video was played) is stored as `read`. */
export type ReceiptStatus = MessageStatus | 'played';

/** Delivery receipts from the channels (Baileys acks, Cloud API status webhooks); edits: MessageUpdatesService. */
@Injectable()
export class MessageStatusService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly events: InboxEvents,
    private readonly changes: InboxChangeHooks,
  ) {}

  /**
   * Moves a message forward (see `ALLOWED_FROM`); a receipt that would move it back, or for an
   * unknown message, changes nothing and returns null. `error` is kept only with `failed`. The
   * `message.status` hooks write in the move's transaction; a `played` receipt reaches them even
   * when the message was read already (it says something `read` did not).
   */
  async updateStatus(workspaceId: string, channel: ChannelName, externalId: string, receipt: ReceiptStatus, error?: string): Promise<MessageEntity | null> {
    const status: MessageStatus = receipt === 'played' ? 'read' : receipt;
    const reason = status === 'failed' ? (error ?? 'failed') : null;
    const updated = await this.changes.apply(
      workspaceId,
      'message.status',
      async (tx) => {
        if (!tx) return { message: await this.messages.setStatusByExternalId(workspaceId, channel, externalId, status, reason), change: null };
        const move = await this.messages.moveStatus(workspaceId, channel, externalId, status, reason, receipt === 'played', tx);
        return { message: move?.moved ? move.message : null, change: move };
      },
      ({ change }) =>
        change && {
          kind: 'message.status',
          message: change.message,
          conversation: change.conversation,
          status: receipt,
          previousStatus: change.previousStatus,
          error: reason ?? '',
        },
    );
    if (updated.message) await this.events.messageUpdated(workspaceId, updated.message);
    return updated.message;
  }
}
