import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ConversationRepository } from '../conversations/conversation.repository.js';
import { viewerOf } from '../conversations/conversation-viewer.js';
import { InboxEvents } from '../inbox-events.service.js';
import {
  type CreateNoteDto,
  MENTIONS_RULE,
  type MentionResponse,
  NOTE_BODY_MAX,
  NOTE_BODY_REQUIRED,
  NOTE_BODY_TOO_LONG,
  type NoteResponse,
} from './dto/note.dto.js';
import { toMentionResponse, toNoteResponse } from './note.mapper.js';
import { NoteRepository } from './note.repository.js';

/** A conversation's timeline shows its newest 500 notes. */
export const NOTE_LIST_CAP = 500;
export const MENTIONS_CAP = 100;
export const NOTE_NOT_FOUND = 'note not found';
export const NOTE_DELETE_FORBIDDEN = 'only its author or an admin can delete a note';
export const MENTIONS_NEED_USER = 'mentions need a signed-in user';

/**
 * Private notes: the team's remarks on a conversation. A note is seen by whoever sees its
 * conversation, and goes nowhere else: nothing here reaches a channel, a webhook or the outbox;
 * the only event is the live stream's `note.created`.
 */
@Injectable()
export class NotesService {
  constructor(
    private readonly notes: NoteRepository,
    private readonly conversations: ConversationRepository,
    private readonly events: InboxEvents,
  ) {}

  async list(actor: WorkspaceActor, conversationId: string): Promise<NoteResponse[]> {
    await this.requireConversation(actor, conversationId);
    return (await this.notes.list(actor.workspaceId, conversationId, NOTE_LIST_CAP)).map(toNoteResponse);
  }

  async create(actor: WorkspaceActor, conversationId: string, dto: CreateNoteDto): Promise<NoteResponse> {
    const body = typeof dto.body === 'string' ? dto.body.trim() : '';
    if (!body) throw ApiError.badRequest(NOTE_BODY_REQUIRED);
    if (body.length > NOTE_BODY_MAX) throw ApiError.badRequest(NOTE_BODY_TOO_LONG);
    const mentions = [...new Set((dto.mentions ?? []).map((id) => id.toLowerCase()))];
    if (mentions.length && (await this.notes.countMembers(actor.workspaceId, mentions)) !== mentions.length) {
      throw ApiError.badRequest(MENTIONS_RULE);
    }
    const created = await this.notes.insert(actor.workspaceId, viewerOf(actor), { conversationId, authorId: actor.userId, body, mentions });
    if (!created) throw ApiError.notFound('conversation not found');
    const note = toNoteResponse(created);
    await this.events.noteCreated(actor.workspaceId, note, created);
    return note;
  }

  /** The author deletes their note; owners and admins any note; an API key the notes without an author. */
  async delete(actor: WorkspaceActor, conversationId: string, noteId: string): Promise<{ ok: true }> {
    await this.requireConversation(actor, conversationId);
    const note = await this.notes.find(actor.workspaceId, conversationId, noteId);
    if (!note) throw ApiError.notFound(NOTE_NOT_FOUND);
    const admin = actor.via === 'session' && (actor.role === 'owner' || actor.role === 'admin');
    if (!admin && note.authorId !== actor.userId) throw ApiError.forbidden(NOTE_DELETE_FORBIDDEN);
    if (!(await this.notes.delete(actor.workspaceId, conversationId, noteId))) throw ApiError.notFound(NOTE_NOT_FOUND);
    return { ok: true };
  }

  async mentions(actor: WorkspaceActor): Promise<MentionResponse[]> {
    if (!actor.userId) throw ApiError.badRequest(MENTIONS_NEED_USER);
    return (await this.notes.mentioning(actor.workspaceId, viewerOf(actor), actor.userId, MENTIONS_CAP)).map(toMentionResponse);
  }

  private async requireConversation(actor: WorkspaceActor, conversationId: string): Promise<void> {
    if (!(await this.conversations.find(actor.workspaceId, viewerOf(actor), conversationId))) throw ApiError.notFound('conversation not found');
  }
}
