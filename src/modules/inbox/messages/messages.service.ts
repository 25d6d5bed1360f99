import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConversationRepository } from '../conversations/conversation.repository.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import type { MessagePageResponse } from '../dto/inbox-responses.dto.js';
import { toMessageResponse } from '../inbox.mapper.js';
import { decodeCursor, encodeCursor, parseLimit } from './message-cursor.js';
import { MessageRepository } from './message.repository.js';

@Injectable()
export class MessagesService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
  ) {}

  /** One page, newest first; `next_cursor` is null when nothing older remains. */
  async list(actor: WorkspaceActor, conversationId: string, limitParam: unknown, beforeParam: unknown): Promise<MessagePageResponse> {
    const limit = parseLimit(limitParam);
    const before = beforeParam === undefined ? null : decodeCursor(beforeParam);
    const conversation = await this.conversations.find(actor.workspaceId, viewerOf(actor), conversationId);
    if (!conversation) throw ApiError.notFound('conversation not found');
    // One extra row tells whether another page exists without a second query.
    const rows = await this.messages.page(actor.workspaceId, conversationId, limit + 1, before);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      messages: page.map(toMessageResponse),
      next_cursor: rows.length > limit && last ? encodeCursor({ micros: last.cursorMicros, seq: last.seq }) : null,
    };
  }
}
