import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Conversation, Member, Message, MessagePage } from '../../api/types.js';
import { useLiveEvent, useLiveState } from '../../live.js';
import { useSession } from '../../session.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Badge, Button, ErrorNote, Loading } from '../../ui/kit.js';
import { Composer } from './composer.js';
import { conversationTitle } from './conversation-list.js';
import { memberName } from './inbox.js';
import { LabelChips } from './label-chips.js';
import { NoteBubble, timeline, useNotes } from './notes.js';
import { useMessageActions } from './message-actions.js';
import { isReply, MessageBubble } from './message-bubble.js';
import { useQueuePlaces } from './queue-places.js';
import { ScanBanner } from './scan-banner.js';
import { StatusBadge } from './conversation-row.js';
import { StatusControls } from './status-controls.js';

const PAGE = 30;

/**
 * Oldest first, without duplicates (a send's answer and its live event carry the same message).
 * `firstSeen` (message id → when this view first got it) orders messages of the same second
 * (timestamps are whole seconds) as they were stored: pages come newest first, so they are read
 * from their end; live messages arrive in stored order.
 */
function merge(current: Message[], incoming: Message[], firstSeen: Map<string, number>): Message[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) {
    byId.set(m.id, m);
    if (!firstSeen.has(m.id)) firstSeen.set(m.id, firstSeen.size);
  }
  return [...byId.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || firstSeen.get(a.id)! - firstSeen.get(b.id)!);
}

/** Under the title: the number when the title is a name, and the channel it runs on. */
function conversationSubtitle(c: Conversation): string {
  const channel = c.channel === 'meta' ? 'WhatsApp Cloud API' : 'WhatsApp';
  if (c.is_group) return `${channel} group`;
  const phone = c.chat_phone ? `+${c.chat_phone}` : '';
  return phone && phone !== conversationTitle(c) ? `${phone} · ${channel}` : channel;
}

/** One conversation: its history (scroll up for older pages), live messages, actions and the composer. */
export function ConversationView({ id, members }: { id: string; members: Member[] }): JSX.Element {
  const { isAdmin } = useSession();
  const conversation = useLoad(() => api.get<Conversation>(`/api/conversations/${id}`), [id]);
  const [messages, setMessages] = useState<Message[]>([]);
  const [cursor, setCursor] = useState<string | null | undefined>(undefined);
  const scroller = useRef<HTMLDivElement>(null);
  const topSentinel = useRef<HTMLLIElement>(null);
  const stickToBottom = useRef(true);
  const keepFromBottom = useRef<number | null>(null);
  const firstSeen = useRef(new Map<string, number>());

  const older = useAction(async () => {
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (cursor) query.set('before', cursor);
    const page = await api.get<MessagePage>(`/api/conversations/${id}/messages?${query}`);
    const box = scroller.current;
    // Keep the message the reader was looking at in place while older ones are added above it.
    if (box && cursor) keepFromBottom.current = box.scrollHeight - box.scrollTop;
    setMessages((current) => merge(current, [...page.messages].reverse(), firstSeen.current));
    setCursor(page.next_cursor);
  });

  const markRead = useAction(() => api.post(`/api/conversations/${id}/read`));

  // Whenever the live stream (re)opens, the newest page again: a message stored between the first
  // page and the stream's opening (or while it was away for longer than its replay) would
  // otherwise show only after a reload.
  const live = useLiveState();
  useEffect(() => {
    if (live !== 'live') return;
    void api
      .get<MessagePage>(`/api/conversations/${id}/messages?${new URLSearchParams({ limit: String(PAGE) })}`)
      .then((page) => setMessages((current) => merge(current, [...page.messages].reverse(), firstSeen.current)))
      .catch(() => undefined);
  }, [live, id]);

  useEffect(() => {
    void older.run();
    void markRead.run();
  }, [id]);

  // The box exists once the conversation has loaded, which may be after the first page did.
  const shown = Boolean(conversation.data);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    if (keepFromBottom.current !== null) {
      box.scrollTop = box.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (stickToBottom.current) box.scrollTop = box.scrollHeight;
  }, [messages, shown]);

  // The box shrinks when something shows below it (the not-connected banner, an attachment):
  // a reader at the newest message stays there.
  useEffect(() => {
    const box = scroller.current;
    if (!box) return undefined;
    const observer = new ResizeObserver(() => {
      if (stickToBottom.current) box.scrollTop = box.scrollHeight;
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [shown]);

  // Reaching the top of the history loads the page before it.
  useEffect(() => {
    const sentinel = topSentinel.current;
    if (!sentinel || !cursor) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !older.busy && messages.length > 0) void older.run();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [cursor, older.busy, messages.length, shown]);

  useLiveEvent<Message>('message.created', (message) => {
    if (message.conversation_id !== id) return;
    setMessages((current) => merge(current, [message], firstSeen.current));
    if (message.direction === 'inbound' && document.visibilityState === 'visible') void markRead.run();
  });
  useLiveEvent<Message>('message.updated', (message) => {
    if (message.conversation_id === id)
      setMessages((current) => (current.some((m) => m.id === message.id) ? merge(current, [message], firstSeen.current) : current));
  });
  useLiveEvent<Conversation>('conversation.updated', (changed) => {
    if (changed.id === id) conversation.set(changed);
  });

  const notes = useNotes(id);
  const queued = useQueuePlaces(messages);
  const actions = useMessageActions(id, messages, (message) => setMessages((current) => merge(current, [message], firstSeen.current)));

  const assign = useAction(async (userId: string) => {
    conversation.set(await api.post<Conversation>(`/api/conversations/${id}/assign`, { user_id: userId || null }));
  });

  const c = conversation.data;
  if (conversation.error) return <ErrorNote error={conversation.error} />;
  if (!c) return <Loading />;
  return (
    <article class="conversation-view" aria-label={`Conversation with ${conversationTitle(c)}`}>
      <header class="conversation-header">
        <div>
          <h2>
            {conversationTitle(c)} {c.is_group ? <Badge kind="accent">Group</Badge> : null} <StatusBadge c={c} />
          </h2>
          <p class="muted">{conversationSubtitle(c)}</p>
          <LabelChips c={c} onChanged={conversation.set} />
        </div>
        <div class="conversation-actions">
          {isAdmin ? (
            <div class="assign">
              <label for="conversation-assignee">Assignee</label>
              <select id="conversation-assignee" value={c.assignee_id ?? ''} disabled={assign.busy} onChange={(e) => void assign.run(e.currentTarget.value)}>
                <option value="">Unassigned</option>
                {members.map((m) => (
                  <option key={m.user_id} value={m.user_id}>
                    {m.name || m.email}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <span class="muted">{memberName(members, c.assignee_id)}</span>
          )}
          <StatusControls c={c} onChanged={conversation.set} />
        </div>
      </header>
      <ErrorNote error={assign.error ?? older.error ?? actions.react.error} />
      <div
        class="messages"
        ref={scroller}
        tabIndex={0}
        aria-label="Messages"
        onScroll={(e) => {
          const box = e.currentTarget;
          stickToBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
        }}
      >
        <ol>
          <li ref={topSentinel} class="history-top">
            {cursor ? (
              <Button variant="link" busy={older.busy} onClick={() => void older.run()}>
                Load older messages
              </Button>
            ) : cursor === null ? (
              <span class="muted">Beginning of the conversation</span>
            ) : null}
          </li>
          {timeline(messages, notes.list, cursor === null).map((item) => {
            if (item.kind === 'note') return <NoteBubble key={`note-${item.note.id}`} note={item.note} />;
            const m = item.message;
            return (
              <MessageBubble
                key={m.id}
                message={m}
                showSender={c.is_group}
                quoted={isReply(m) ? actions.quotedOf(m) : null}
                ownJids={actions.ownJids}
                highlighted={actions.highlighted === m.id}
                onJump={actions.jump}
                onReply={actions.setReplyTo}
                onReact={(message, emoji) => void actions.react.run(message, emoji)}
                reacting={actions.reacting === m.id}
                queuePosition={queued.get(m.id)}
              />
            );
          })}
        </ol>
        {cursor === undefined && older.busy ? <Loading /> : null}
      </div>
      {c.channel === 'scan' ? <ScanBanner /> : null}
      <Composer
        conversationId={id}
        members={members}
        onNote={(note) => {
          stickToBottom.current = true;
          notes.add(note);
        }}
        replyTo={actions.replyTo}
        onCancelReply={() => actions.setReplyTo(null)}
        onSent={(message) => {
          stickToBottom.current = true;
          setMessages((current) => merge(current, [message], firstSeen.current));
        }}
      />
    </article>
  );
}
