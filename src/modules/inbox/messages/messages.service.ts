import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConversationRepository } from '../conversations/conversation.repository.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import type { MessagePageResponse } from '../dto/inbox-responses.dto.js';
import { toMessageResponse } from '../inbox.mapper.js';
import { AFTER_SEQ_WITH_BEFORE, decodeCursor, encodeCursor, parseAfterSeq, parseLimit } from './message-cursor.js';
import { MessageRepository } from './message.repository.js';

@Injectable()
export class MessagesService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly messages: MessageRepository,
  ) {}

  /**
   * One page, newest first; `next_cursor` is null when nothing older remains. With `after_seq`:
   * the messages after that `seq`, oldest first, and `next_cursor` null (a receiver filling a gap
   * asks again from the last seq it got; no cursor to keep).
   */
  async list(actor: WorkspaceActor, conversationId: string, limitParam: unknown, beforeParam: unknown, afterSeqParam?: unknown): Promise<MessagePageResponse> {
    const limit = parseLimit(limitParam);
    const afterSeq = parseAfterSeq(afterSeqParam);
    if (afterSeq !== undefined && beforeParam !== undefined) throw ApiError.badRequest(AFTER_SEQ_WITH_BEFORE);
    const before = beforeParam === undefined ? null : decodeCursor(beforeParam);
    const conversation = await this.conversations.find(actor.workspaceId, viewerOf(actor), conversationId);
    if (!conversation) throw ApiError.notFound('conversation not found');
    if (afterSeq !== undefined) {
      const rows = await this.messages.pageAfterSeq(actor.workspaceId, conversationId, limit, afterSeq);
      return { messages: rows.map(toMessageResponse), next_cursor: null };
    }
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
