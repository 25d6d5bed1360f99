import type { JSX } from 'preact';
import { KIND_LABELS, kindOf } from '../../api/message-types.js';
import type { Message } from '../../api/types.js';
import { playTime } from './bubble-media.js';

/** A message in one line: its text, else what it is ("🎤 Voice message · 0:07", a file's name). */
export function messageSummary(message: Message): string {
  const kind = kindOf(message);
  const firstLine = message.content.split('\n')[0]!.trim();
  if (firstLine && kind !== 'unsupported') return firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine;
  if (kind === 'text') return firstLine;
  if (kind === 'document' && message.file_name) return `📄 ${message.file_name}`;
  if (kind === 'unsupported') return message.content || KIND_LABELS.unsupported;
  return message.duration_s ? `${KIND_LABELS[kind]} · ${playTime(message.duration_s)}` : KIND_LABELS[kind];
}

/** Who wrote a message, as a quote names them. */
export function authorOf(message: Message): string {
  return message.direction === 'outbound' ? 'You' : message.sender_name || 'Contact';
}

/**
 * The message a reply quotes, above the reply: a button that scrolls to it when the conversation
 * shows it, else a note (it is older than the pages loaded, or the inbox never held it).
 */
export function QuotedMessage({ quoted, onJump }: { quoted: Message | null; onJump: (id: string) => void }): JSX.Element {
  if (!quoted) return <span class="bubble-quote bubble-quote-missing">Original message not loaded</span>;
  return (
    <button type="button" class="bubble-quote" title="Show the quoted message" onClick={() => onJump(quoted.id)}>
      <span class="bubble-quote-author">{authorOf(quoted)}</span>
      <span class={`bubble-quote-text${quoted.deleted ? ' bubble-deleted' : ''}`}>{messageSummary(quoted)}</span>
    </button>
  );
}
