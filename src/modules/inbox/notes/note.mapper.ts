import type { MentionResponse, NoteResponse } from './dto/note.dto.js';
import type { NoteRow } from './note.repository.js';

/** What a note written with an API key (no author) shows as its author. */
export const API_AUTHOR_NAME = 'API';

export const toNoteResponse = (row: NoteRow): NoteResponse => ({
  id: row.id,
  conversation_id: row.conversationId,
  author_id: row.authorId,
  author_name: row.authorId === null ? API_AUTHOR_NAME : (row.authorName ?? ''),
  body: row.body,
  mentions: row.mentions ?? [],
  created_at: new Date(row.createdAt).toISOString(),
});

export const toMentionResponse = (row: NoteRow): MentionResponse => ({ ...toNoteResponse(row), chat_name: row.chatName ?? '' });
