import { Injectable, Logger } from '@nestjs/common';
import { LiveEventsService } from '../events/live-events.service.js';
import type { ConversationEntity } from './entities/conversation.entity.js';
import type { MessageEntity } from './entities/message.entity.js';
import { toConversationResponse, toMessageResponse } from './inbox.mapper.js';

/**
 * Live events of the inbox, always published after commit with the REST shapes. The stream is a
 * convenience for open Consoles: a failed publish is logged, never turned into a failed request.
 */
@Injectable()
export class InboxEvents {
  private readonly logger = new Logger('InboxEvents');

  constructor(private readonly live: LiveEventsService) {}

  async messageCreated(workspaceId: string, message: MessageEntity, conversation?: ConversationEntity): Promise<void> {
    await this.publish(workspaceId, 'message.created', { ...toMessageResponse(message) });
    if (conversation) await this.conversationUpdated(workspaceId, conversation);
  }

  async messageUpdated(workspaceId: string, message: MessageEntity): Promise<void> {
    await this.publish(workspaceId, 'message.updated', { ...toMessageResponse(message) });
  }

  async conversationUpdated(workspaceId: string, conversation: ConversationEntity): Promise<void> {
    await this.publish(workspaceId, 'conversation.updated', { ...toConversationResponse(conversation) });
  }

  private async publish(
    workspaceId: string,
    name: 'message.created' | 'message.updated' | 'conversation.updated',
    data: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.live.publish(workspaceId, name, data);
    } catch (error) {
      this.logger.warn({ err: error, workspaceId, event: name }, 'live event not published');
    }
  }
}
