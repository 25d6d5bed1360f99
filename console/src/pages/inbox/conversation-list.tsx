import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Conversation, Member } from '../../api/types.js';
import { useLiveEvent } from '../../live.js';
import { navigate } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, Empty, ErrorNote, Loading } from '../../ui/kit.js';
import { fitsFilter, NO_FILTER, useConversationPages, type ListFilter } from './conversation-pages.js';
import { ConversationRow } from './conversation-row.js';
import { useInboxCommand } from './inbox-commands.js';
import { ListFilters, STATUS_TABS } from './list-filters.js';

export { conversationTitle } from './conversation-row.js';

/** How close to the end of the loaded rows (in pixels) the next page is fetched. */
const LOAD_AHEAD_PX = 600;

interface Anchor {
  id: string;
  /** The row's distance from the top of the visible area. */
  offset: number;
}

/**
 * Every conversation of the filter, newest first, a page at a time as you scroll, kept current by
 * `conversation.updated`. A row that moves (a new message lifts it to the top) does not move the
 * rows you are looking at: after each change the first visible row that stayed put is put back
 * where it was (unless you are at the very top, where new arrivals should show).
 */
export function ConversationList({ selectedId, members }: { selectedId?: string; members: Member[] }): JSX.Element {
  const { me, isAdmin } = useSession();
  const [filter, setFilter] = useState<ListFilter>(NO_FILTER);
  const pages = useConversationPages(filter);
  const box = useRef<HTMLUListElement>(null);
  const anchors = useRef<Anchor[]>([]);
  const savedTop = useRef(0);
  const moved = useRef(new Set<string>());

  // An agent sees unassigned conversations and their own (the API's rule): one assigned to someone
  // else leaves their list, as it would on a reload. Opening a conversation reads it: that alone
  // does not take the open one out of the Unread list.
  const fits = (c: Conversation, known: boolean): boolean =>
    (isAdmin || c.assignee_id === null || c.assignee_id === me?.user.id) &&
    fitsFilter(c.id === selectedId ? { ...c, unread_count: Math.max(1, c.unread_count) } : c, filter, me?.user.id, known);

  useLiveEvent<Conversation>('conversation.updated', (changed) => {
    moved.current.add(changed.id);
    pages.apply(changed, fits);
  });

  // History from the phone is stored in bulk, without an event per conversation: each batch's
  // `sync.progress` is the signal to read the list again (the events of half a second, once).
  const syncReload = useRef<number | undefined>(undefined);
  useLiveEvent('sync.progress', () => {
    if (syncReload.current !== undefined) return;
    syncReload.current = window.setTimeout(() => {
      syncReload.current = undefined;
      pages.refresh();
    }, 500);
  });
  useEffect(() => () => window.clearTimeout(syncReload.current), []);

  const shown = pages.items.filter((c) => !pages.hidden.has(c.id));
  // Where the open conversation was: after it left the list (closed with `e`), `j` goes on from there.
  const lastIndex = useRef(-1);
  const selectedIndex = shown.findIndex((c) => c.id === selectedId);
  if (selectedIndex >= 0) lastIndex.current = selectedIndex;

  /** Notes which rows are in view and where, to hold them there through the next change. */
  const remember = (): void => {
    const el = box.current;
    if (!el || !el.offsetParent) return;
    savedTop.current = el.scrollTop;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const found: Anchor[] = [];
    for (const row of el.querySelectorAll<HTMLElement>('li[data-row]')) {
      if (row.offsetTop + row.offsetHeight <= top) continue;
      if (row.offsetTop >= bottom || found.length >= 12) break;
      found.push({ id: row.dataset.row!, offset: row.offsetTop - top });
    }
    anchors.current = found;
  };

  const nearEnd = (): void => {
    const el = box.current;
    if (el && el.offsetParent && pages.hasMore && el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_AHEAD_PX) pages.loadMore();
  };

  useLayoutEffect(() => {
    const el = box.current;
    if (el && el.offsetParent && savedTop.current > 2) {
      for (const anchor of anchors.current) {
        if (moved.current.has(anchor.id)) continue;
        const row = el.querySelector<HTMLElement>(`li[data-row="${CSS.escape(anchor.id)}"]`);
        if (!row) continue;
        const want = row.offsetTop - anchor.offset;
        if (Math.abs(el.scrollTop - want) > 0.5) el.scrollTop = want;
        break;
      }
    }
    moved.current.clear();
    remember();
    // A short page (or a tall screen) leaves no room to scroll: keep loading until it fills.
    nearEnd();
  }, [shown.map((c) => c.id).join(',')]);

  // A new filter starts at the top.
  useLayoutEffect(() => {
    if (box.current) box.current.scrollTop = 0;
    savedTop.current = 0;
    lastIndex.current = -1;
  }, [filter]);

  // Back from a conversation on a phone (the list was hidden, which loses its scroll position):
  // where you were. Otherwise: the chosen row in view (j/k move past the edge).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !el.offsetParent) return;
    if (Math.abs(el.scrollTop - savedTop.current) > 1) el.scrollTop = savedTop.current;
    if (selectedId) el.querySelector<HTMLElement>(`li[data-row="${CSS.escape(selectedId)}"]`)?.scrollIntoView({ block: 'nearest' });
    remember();
  }, [selectedId]);

  const step = (by: 1 | -1): void => {
    if (shown.length === 0) return;
    const at = shown.findIndex((c) => c.id === selectedId);
    const gone = at < 0 && selectedId && lastIndex.current >= 0;
    const next = gone ? Math.min(lastIndex.current - (by === 1 ? 0 : 1), shown.length) : at < 0 ? (by === 1 ? 0 : shown.length - 1) : at + by;
    if (next >= shown.length) {
      pages.loadMore();
      return;
    }
    if (next < 0) return;
    navigate(`/inbox/${shown[next]!.id}`);
  };
  useInboxCommand('next', () => step(1));
  useInboxCommand('previous', () => step(-1));

  const statusName = STATUS_TABS.find(([value]) => value === filter.status)![1].toLowerCase();
  const filtered = filter.assignee !== 'all' || filter.label || filter.channel || filter.unread || filter.q.trim();
  return (
    <div class="conversation-list">
      <ListFilters filter={filter} onChange={setFilter} />
      <ErrorNote error={pages.error} />
      {pages.loading && shown.length === 0 ? (
        <Loading />
      ) : shown.length === 0 ? (
        <Empty title={filtered ? `No ${statusName} conversations match.` : `No ${statusName} conversations.`}>
          {filtered ? (
            <Button variant="link" onClick={() => setFilter({ ...NO_FILTER, status: filter.status })}>
              Clear the filters
            </Button>
          ) : (
            'Messages to your WhatsApp number show up here as they arrive.'
          )}
        </Empty>
      ) : (
        <ul
          class="conversations"
          aria-label="Conversations"
          aria-busy={pages.loadingMore || undefined}
          ref={box}
          onScroll={() => {
            remember();
            nearEnd();
          }}
        >
          {shown.map((c) => (
            <ConversationRow key={c.id} c={c} selected={c.id === selectedId} members={members} />
          ))}
          <li class="list-end" aria-live="polite">
            {pages.loadingMore ? (
              <Loading label="Loading more…" />
            ) : pages.hasMore ? (
              <Button variant="link" onClick={() => pages.loadMore()}>
                Load more
              </Button>
            ) : (
              <span class="muted">{`All ${shown.length} ${statusName} conversation${shown.length === 1 ? '' : 's'}`}</span>
            )}
          </li>
        </ul>
      )}
    </div>
  );
}
