import { Injectable } from '@nestjs/common';
import type { SqlExecutor } from '../../../infra/database/sql-executor.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { ConversationRepository } from '../conversations/conversation.repository.js';
import type { ConversationEntity } from '../entities/conversation.entity.js';
import type { MessageEntity } from '../entities/message.entity.js';
import { InboxEvents } from '../inbox-events.service.js';
import { MessageRepository, type StoredMedia } from '../messages/message.repository.js';
import { ContactMergeRepository } from './contact-merge.repository.js';

/**
 * What a channel changes in the inbox besides new messages (InboxIngestService) and receipts or
 * edits (MessageStatusService): a group's new subject, a downloaded file, a person's second id.
 * The inbox owns contacts, conversations and messages: channels change them only through its
 * services, on the channel's transaction when it passes one (see CONTRIBUTING, "Data").
 */
@Injectable()
export class ChannelUpdatesService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly contacts: ContactMergeRepository,
    private readonly events: InboxEvents,
  ) {}

  /** A group's new subject names its conversation (an unknown group has none); open Consoles see it. */
  async renameGroup(workspaceId: string, channel: ChannelName, chatJid: string, name: string): Promise<ConversationEntity | null> {
    const renamed = await this.conversations.renameGroup(workspaceId, channel, chatJid, name);
    if (renamed) await this.events.conversationUpdated(workspaceId, renamed);
    return renamed;
  }

  /**
   * Records where a message's downloaded file is served; null when the message is gone. On `tx`
   * when the channel records more in the same transaction (its live events are the caller's, after
   * the commit).
   */
  mediaStored(workspaceId: string, messageId: string, media: StoredMedia, tx?: SqlExecutor): Promise<MessageEntity | null> {
    return this.messages.setMedia(workspaceId, messageId, media, tx);
  }

  /**
   * One person's phone number and LID, learnt by the channel: each contact gets the id it lacks and
   * a LID-addressed chat its phone number. Runs in the caller's transaction, after
   * `ContactMergeService.mergeSplit` for the same pair.
   */
  linkLid(workspaceId: string, phone: string, lid: string, tx: SqlExecutor): Promise<void> {
    return this.contacts.linkLid(workspaceId, phone, lid, tx);
  }
}
