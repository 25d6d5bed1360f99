import { Injectable } from '@nestjs/common';
import type { ChannelName, SendReceipt } from '../../channels/channel-gateway.port.js';
import { InboxChangeHooks } from '../changes/inbox-change-hooks.js';
import type { InboxChangeOf } from '../changes/inbox-change.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { MessageRepository } from './message.repository.js';

/**
 * How a send of ours ended, recorded the same way whether it went out at once or from the
 * number's queue: `sent` with the channel's id, or `failed` with the reason, each with its
 * `message.status` change and live event.
 */
@Injectable()
export class SendOutcomeService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly changes: InboxChangeHooks,
    private readonly events: InboxEvents,
  ) {}

  /** The failure and its `message.status` event commit together. Answers the failed row (or the stored one when it had moved on). */
  async failed(workspaceId: string, message: MessageEntity, conversation: ConversationEntity, reason: string): Promise<MessageEntity> {
    const moved = await this.changes.apply(
      workspaceId,
      'message.status',
      (tx) => this.messages.setStatusById(workspaceId, message.id, 'failed', reason, tx),
      (row) => row && statusMoved(row, conversation, 'failed', reason),
    );
    const failed = moved ?? message;
    await this.events.messageUpdated(workspaceId, failed, conversation);
    return failed;
  }

  async sent(
    workspaceId: string,
    message: MessageEntity,
    conversation: ConversationEntity,
    channel: ChannelName,
    receipt: SendReceipt,
  ): Promise<MessageEntity> {
    const marked = await this.messages.markSent(workspaceId, message.id, channel, receipt.externalId, receipt.senderJid ?? '');
    // Its `message.status` event in a transaction of its own right after: markSent answers a
    // unique violation (the channel's echo stored first) by taking the echo's row, which a
    // transaction around it could not survive. Only when this very row moved (not the echo's).
    if (marked?.id === message.id && marked.status === 'sent') {
      await this.changes.apply(
        workspaceId,
        'message.status',
        async () => marked,
        (row) => statusMoved(row, conversation, 'sent', null),
      );
    }
    const sent = marked ?? message;
    await this.events.messageUpdated(workspaceId, sent, conversation);
    return sent;
  }
}

/** Our own send's first move (from `pending`): the `message.status` change of it. */
function statusMoved(
  message: MessageEntity,
  conversation: ConversationEntity,
  status: 'sent' | 'failed',
  error: string | null,
): InboxChangeOf<'message.status'> {
  return { kind: 'message.status', message, conversation, status, previousStatus: 'pending', error: error ?? '' };
}
