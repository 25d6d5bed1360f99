import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { viewerOf } from '../../inbox/conversations/conversation-viewer.js';
import type { CreateQuickReplyDto, QuickReplyResponse, RenderedQuickReplyResponse, UpdateQuickReplyDto } from './dto/quick-reply.dto.js';
import { QuickReplyRepository, type QuickReplyRow } from './quick-reply.repository.js';
import { renderQuickReply } from './quick-reply-text.js';

/** A workspace has at most this many quick replies (the composer's picker lists them all). */
export const QUICK_REPLY_CAP = 500;
export const QUICK_REPLY_EXISTS = 'a quick reply with this shortcut already exists';
export const QUICK_REPLY_NOT_FOUND = 'quick reply not found';
export const QUICK_REPLIES_FULL = `a workspace has at most ${QUICK_REPLY_CAP} quick replies`;

const toResponse = (row: QuickReplyRow): QuickReplyResponse => ({
  id: row.id,
  shortcut: row.shortcut,
  body: row.body,
  created_at: new Date(row.createdAt).toISOString(),
  updated_at: new Date(row.updatedAt).toISOString(),
});

/**
 * Canned answers for the composer. They are not templates: nothing is sent from here; `render`
 * only fills in the placeholders for the reply box, where the agent edits and sends the text.
 */
@Injectable()
export class QuickRepliesService {
  constructor(private readonly replies: QuickReplyRepository) {}

  async list(workspaceId: string): Promise<QuickReplyResponse[]> {
    return (await this.replies.list(workspaceId, QUICK_REPLY_CAP)).map(toResponse);
  }

  async create(workspaceId: string, dto: CreateQuickReplyDto): Promise<QuickReplyResponse> {
    const created = await this.replies.insert(workspaceId, dto.shortcut, dto.body, QUICK_REPLY_CAP);
    if (created === 'conflict') throw ApiError.conflict(QUICK_REPLY_EXISTS);
    if (created === 'full') throw ApiError.conflict(QUICK_REPLIES_FULL);
    return toResponse(created);
  }

  async update(workspaceId: string, id: string, dto: UpdateQuickReplyDto): Promise<QuickReplyResponse> {
    const updated = await this.replies.update(workspaceId, id, dto);
    if (updated === 'conflict') throw ApiError.conflict(QUICK_REPLY_EXISTS);
    if (!updated) throw ApiError.notFound(QUICK_REPLY_NOT_FOUND);
    return toResponse(updated);
  }

  async delete(workspaceId: string, id: string): Promise<{ ok: true }> {
    if (!(await this.replies.delete(workspaceId, id))) throw ApiError.notFound(QUICK_REPLY_NOT_FOUND);
    return { ok: true };
  }

  /** The text for `conversationId`, as the caller (`{{agent.name}}`: their name; '' for an API key). */
  async render(actor: WorkspaceActor, id: string, conversationId: string): Promise<RenderedQuickReplyResponse> {
    const reply = await this.replies.find(actor.workspaceId, id);
    if (!reply) throw ApiError.notFound(QUICK_REPLY_NOT_FOUND);
    const context = await this.replies.renderContext(actor.workspaceId, viewerOf(actor), conversationId.toLowerCase(), actor.userId);
    if (!context) throw ApiError.notFound('conversation not found');
    return { text: renderQuickReply(reply.body, context) };
  }
}
