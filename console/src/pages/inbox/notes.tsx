import type { JSX } from 'preact';
import { useCallback } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Note } from '../../api/team-types.js';
import type { Message } from '../../api/types.js';
import { useLiveEvent } from '../../live.js';
import { useLoad } from '../../ui/hooks.js';
import './notes.css';

/** One row of the conversation's timeline: a message, or a private note between them. */
export type TimelineItem = { kind: 'message'; at: string; message: Message } | { kind: 'note'; at: string; note: Note };

export interface Notes {
  list: Note[];
  /** A note this tab wrote (its live event may come first or after: kept once). */
  add: (note: Note) => void;
}

/** The conversation's notes, kept current by `note.created`. */
export function useNotes(conversationId: string): Notes {
  const notes = useLoad(() => api.get<Note[]>(`/api/conversations/${conversationId}/notes`), [conversationId]);
  const add = useCallback((note: Note) => notes.set((current) => (current?.some((n) => n.id === note.id) ? current : [...(current ?? []), note])), [notes.set]);
  useLiveEvent<Note>('note.created', (note) => {
    if (note.conversation_id === conversationId) add(note);
  });
  return { list: notes.data ?? [], add };
}

/**
 * Messages and notes in time order. While older messages are still to load (`complete` false),
 * notes older than the oldest loaded message wait with them: they show up as the reader scrolls up.
 */
export function timeline(messages: Message[], notes: Note[], complete: boolean): TimelineItem[] {
  const oldest = messages[0]?.timestamp;
  const shownNotes = complete || !oldest ? notes : notes.filter((n) => n.created_at >= oldest);
  const items: TimelineItem[] = messages.map((message) => ({ kind: 'message', at: message.timestamp, message }));
  for (const note of shownNotes) items.push({ kind: 'note', at: note.created_at, note });
  // Stable: messages keep their order among themselves; a note goes after what came before it.
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => new Date(a.item.at).getTime() - new Date(b.item.at).getTime() || a.index - b.index)
    .map(({ item }) => item);
}

/** A private note in the timeline: yellow, marked as such, with its author and time. */
export function NoteBubble({ note }: { note: Note }): JSX.Element {
  const time = new Date(note.created_at);
  return (
    <li class="note-bubble" data-note={note.id} aria-label={`Private note by ${note.author_name}`}>
      <span class="note-bubble-head">
        <span class="note-bubble-tag">Private note</span> · <span class="note-bubble-author">{note.author_name}</span>
      </span>
      <p class="bubble-text">{note.body}</p>
      <span class="bubble-meta">
        <time dateTime={note.created_at} title={time.toLocaleString()}>
          {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </time>
      </span>
    </li>
  );
}
