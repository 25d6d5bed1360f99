import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Conversation, Member } from '../../api/types.js';
import { useLiveEvent } from '../../live.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { useLoad } from '../../ui/hooks.js';
import { Badge, Empty, ErrorNote, Loading, relativeTime } from '../../ui/kit.js';
import { memberName } from './inbox.js';

type StatusFilter = 'open' | 'closed';
type AssigneeFilter = 'all' | 'me' | 'none';

export function conversationTitle(c: Conversation): string {
  return c.chat_name || (c.chat_phone ? `+${c.chat_phone}` : c.chat_jid.split('@')[0]!);
}

function newestFirst(a: Conversation, b: Conversation): number {
  return b.last_message_at.localeCompare(a.last_message_at) || b.id.localeCompare(a.id);
}

/** The 30 most recent conversations of the filter, kept current by `conversation.updated`. */
export function ConversationList({ selectedId, members }: { selectedId?: string; members: Member[] }): JSX.Element {
  const { me, isAdmin } = useSession();
  const [status, setStatus] = useState<StatusFilter>('open');
  const [assignee, setAssignee] = useState<AssigneeFilter>('all');
  const query = new URLSearchParams({ status });
  if (assignee !== 'all') query.set('assignee', assignee);
  const list = useLoad(() => api.get<Conversation[]>(`/api/conversations?${query}`), [status, assignee]);

  // An agent sees unassigned conversations and their own (the API's rule): one assigned to someone
  // else leaves their list, as it would on a reload.
  const visible = (c: Conversation): boolean => isAdmin || c.assignee_id === null || c.assignee_id === me?.user.id;
  const fits = (c: Conversation): boolean =>
    visible(c) && c.status === status && (assignee === 'all' || (assignee === 'none' ? c.assignee_id === null : c.assignee_id === me?.user.id));

  useLiveEvent<Conversation>('conversation.updated', (changed) => {
    list.set((previous) => {
      const others = (previous ?? []).filter((c) => c.id !== changed.id);
      return (fits(changed) ? [...others, changed] : others).sort(newestFirst);
    });
  });

  // History from the phone is stored in bulk, without an event per conversation: each batch's
  // `sync.progress` is the signal to fetch the list again (the events of half a second, once).
  const syncReload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useLiveEvent('sync.progress', () => {
    if (syncReload.current !== undefined) return;
    syncReload.current = setTimeout(() => {
      syncReload.current = undefined;
      void list.reload();
    }, 500);
  });
  useEffect(() => () => clearTimeout(syncReload.current), []);

  const conversations = list.data ?? [];
  return (
    <div class="conversation-list">
      <div class="filters" role="group" aria-label="Filter conversations">
        <label>
          <span class="visually-hidden">Show conversations that are</span>
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as StatusFilter)}>
            <option value="open">Open</option>
            <option value="closed">Closed</option>
          </select>
        </label>
        <label>
          <span class="visually-hidden">Show conversations assigned to</span>
          <select value={assignee} onChange={(e) => setAssignee(e.currentTarget.value as AssigneeFilter)}>
            <option value="all">Everyone's</option>
            <option value="me">Mine</option>
            <option value="none">Unassigned</option>
          </select>
        </label>
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? (
        <Loading />
      ) : conversations.length === 0 ? (
        <Empty title={status === 'open' ? 'No open conversations.' : 'No closed conversations.'}>
          Messages to your WhatsApp number show up here as they arrive.
        </Empty>
      ) : (
        <ul class="conversations" aria-label="Conversations">
          {conversations.map((c) => (
            <li key={c.id}>
              <Link
                href={`/inbox/${c.id}`}
                class={`conversation ${c.id === selectedId ? 'selected' : ''}`}
                aria-current={c.id === selectedId ? 'true' : undefined}
                data-conversation={c.id}
              >
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
                <span class="conversation-meta">{memberName(members, c.assignee_id)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
