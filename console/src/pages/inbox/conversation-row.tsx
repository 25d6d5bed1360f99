import type { JSX } from 'preact';
import { memo } from 'preact/compat';
import type { Conversation, Member } from '../../api/types.js';
import { Link } from '../../router.js';
import { Badge, relativeTime } from '../../ui/kit.js';
import { memberName } from './inbox.js';

export function conversationTitle(c: Conversation): string {
  return c.chat_name || (c.chat_phone ? `+${c.chat_phone}` : c.chat_jid.split('@')[0]!);
}

/** "Tue 09:00", "3 Dec, 09:00": when a snooze ends, short enough for a badge. */
export function snoozeText(iso: string): string {
  const date = new Date(iso);
  const days = (date.getTime() - Date.now()) / 86_400_000;
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (date.toDateString() === new Date().toDateString()) return time;
  if (days < 6) return `${date.toLocaleDateString([], { weekday: 'short' })} ${time}`;
  return `${date.toLocaleDateString([], { day: 'numeric', month: 'short' })}, ${time}`;
}

/** The status marks a row and the conversation header show (open shows none). */
export function StatusBadge({ c }: { c: Conversation }): JSX.Element | null {
  if (c.status === 'pending') return <Badge kind="warning">Pending</Badge>;
  if (c.status === 'closed') return <Badge>Closed</Badge>;
  if (c.status === 'snoozed')
    return (
      <Badge kind="accent" title={c.snoozed_until ? new Date(c.snoozed_until).toLocaleString() : undefined}>
        {c.snoozed_until ? `Snoozed until ${snoozeText(c.snoozed_until)}` : 'Snoozed'}
      </Badge>
    );
  return null;
}

interface RowProps {
  c: Conversation;
  selected: boolean;
  members: Member[];
}

/** One row of the list: a link to the conversation (so open-in-new-tab works). */
export const ConversationRow = memo(function ConversationRow({ c, selected, members }: RowProps): JSX.Element {
  return (
    <li data-row={c.id}>
      <Link href={`/inbox/${c.id}`} class={`conversation ${selected ? 'selected' : ''}`} aria-current={selected ? 'true' : undefined} data-conversation={c.id}>
        <span class="conversation-top">
          <span class="conversation-name">{conversationTitle(c)}</span>
          {c.is_group ? <Badge kind="accent">Group</Badge> : null}
          <time class="conversation-time" dateTime={c.last_message_at}>
            {relativeTime(new Date(c.last_message_at))}
          </time>
        </span>
        <span class="conversation-bottom">
          <span class="conversation-preview">{c.last_message_preview || ' '}</span>
          {c.unread_count > 0 ? (
            <span class="unread" aria-label={`${c.unread_count} unread`}>
              {c.unread_count}
            </span>
          ) : null}
        </span>
        <span class="conversation-meta">
          {memberName(members, c.assignee_id)}
          {c.channel === 'meta' ? <Badge>Cloud API</Badge> : null}
          <StatusBadge c={c} />
        </span>
      </Link>
    </li>
  );
});
