import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client.js';
import type { Conversation, ConversationStatus } from '../../api/types.js';

// The whole conversation list, page by page: `GET /api/conversations` with the filters, `limit`
// and `before=<X-Next-Cursor of the previous page>`. The service walks a snapshot (docs/inbox.md,
// Listing), so paging on while messages arrive skips nothing and repeats nothing; what moved since
// the first page comes as live events, and a page row already shown (it moved up live) is not
// added twice.

export const PAGE_SIZE = 50;

export type AssigneeFilter = 'all' | 'me' | 'none';
export type ChannelFilter = '' | 'scan' | 'meta';

export interface ListFilter {
  status: ConversationStatus;
  assignee: AssigneeFilter;
  /** A label id, or '' for any. */
  label: string;
  channel: ChannelFilter;
  unread: boolean;
  /** Name or phone digits, as typed (already debounced). */
  q: string;
}

export const NO_FILTER: ListFilter = { status: 'open', assignee: 'all', label: '', channel: '', unread: false, q: '' };

/** The filter as the list route's query parameters. */
export function filterQuery(filter: ListFilter): URLSearchParams {
  const query = new URLSearchParams({ status: filter.status, limit: String(PAGE_SIZE) });
  if (filter.assignee !== 'all') query.set('assignee', filter.assignee);
  if (filter.label) query.set('label', filter.label);
  if (filter.channel) query.set('channel', filter.channel);
  if (filter.unread) query.set('unread', 'true');
  const q = filter.q.trim();
  if (q) query.set('q', q);
  return query;
}

/**
 * Whether a conversation (as a live event carries it) belongs in the list of `filter`. The search
 * is only checked for a row not shown yet (`known` false): a shown row matched the service's
 * search, which looks at more than this copy can (names change rarely).
 */
export function fitsFilter(c: Conversation, filter: ListFilter, userId: string | undefined, known: boolean): boolean {
  if (c.status !== filter.status) return false;
  if (filter.assignee === 'none' && c.assignee_id !== null) return false;
  if (filter.assignee === 'me' && c.assignee_id !== userId) return false;
  if (filter.label && !(c.label_ids ?? []).includes(filter.label)) return false;
  if (filter.channel && c.channel !== filter.channel) return false;
  if (filter.unread && c.unread_count === 0) return false;
  const q = filter.q.trim().toLowerCase();
  if (q && !known) {
    const digits = q.replace(/\D/g, '');
    const byName = c.chat_name.toLowerCase().includes(q);
    const byPhone = digits.length > 0 && digits.length === q.replace(/[\s+()-]/g, '').length && c.chat_phone.includes(digits);
    if (!byName && !byPhone) return false;
  }
  return true;
}

/** Where `c` goes in a newest-first list: before the first row with an older last message. */
function insertSorted(list: Conversation[], c: Conversation): Conversation[] {
  const at = list.findIndex((x) => x.last_message_at < c.last_message_at);
  if (at < 0) return [...list, c];
  return [...list.slice(0, at), c, ...list.slice(at)];
}

function without(hidden: ReadonlySet<string>, page: Conversation[]): ReadonlySet<string> {
  if (hidden.size === 0 || !page.some((c) => hidden.has(c.id))) return hidden;
  const next = new Set(hidden);
  for (const c of page) next.delete(c.id);
  return next;
}

export interface ConversationPages {
  items: Conversation[];
  /** Rows a live event took out of the filter (the page keeps the open one in sight). */
  hidden: ReadonlySet<string>;
  error: ApiError | null;
  /** The first page is on its way (nothing to show yet, or a new filter). */
  loading: boolean;
  loadingMore: boolean;
  /** More pages exist (the last answer had X-Next-Cursor). */
  hasMore: boolean;
  loadMore: () => void;
  /** A conversation changed (a live event): placed, replaced, hidden or left out. */
  apply: (changed: Conversation, fits: (c: Conversation, known: boolean) => boolean) => void;
  /** History arrived in bulk: read the first page again. */
  refresh: () => void;
}

export function useConversationPages(filter: ListFilter): ConversationPages {
  const [items, setItems] = useState<Conversation[]>([]);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);
  const busy = useRef(false);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const key = filterQuery(filter).toString();

  const fetchPage = async (before: string | null): Promise<{ page: Conversation[]; next: string | null }> => {
    const query = filterQuery(filter);
    if (before) query.set('before', before);
    let next: string | null = null;
    const page = await api.get<Conversation[]>(`/api/conversations?${query}`, { onHeaders: (h) => (next = h.get('X-Next-Cursor')) });
    return { page, next };
  };

  const loadFirst = useCallback(
    async (keepShown: boolean) => {
      const mine = ++generation.current;
      busy.current = true;
      if (!keepShown) setLoading(true);
      try {
        const { page, next } = await fetchPage(null);
        if (mine !== generation.current) return;
        setItems(page);
        setHidden(new Set());
        setCursor(next);
        setError(null);
      } catch (caught) {
        if (mine === generation.current) setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)));
      } finally {
        if (mine === generation.current) {
          busy.current = false;
          setLoading(false);
          setLoadingMore(false);
        }
      }
    },
    [key],
  );

  useEffect(() => {
    setItems([]);
    setCursor(null);
    void loadFirst(false);
  }, [key]);

  const loadMore = useCallback(() => {
    if (busy.current || !cursor) return;
    const mine = generation.current;
    busy.current = true;
    setLoadingMore(true);
    void fetchPage(cursor)
      .then(({ page, next }) => {
        if (mine !== generation.current) return;
        // A row that moved up live since the walk began is shown already, where it is now.
        setItems((current) => {
          const shown = new Set(current.map((c) => c.id));
          return [...current, ...page.filter((c) => !shown.has(c.id))];
        });
        setHidden((current) => without(current, page));
        setCursor(next);
        setError(null);
      })
      .catch((caught: unknown) => {
        if (mine === generation.current) setError(caught instanceof ApiError ? caught : new ApiError(0, String(caught)));
      })
      .finally(() => {
        if (mine !== generation.current) return;
        busy.current = false;
        setLoadingMore(false);
      });
  }, [cursor, key]);

  const apply = useCallback(
    (changed: Conversation, fitsOf: (c: Conversation, known: boolean) => boolean) => {
      const known = itemsRef.current.some((c) => c.id === changed.id);
      const fits = fitsOf(changed, known);
      setHidden((current) => {
        if (fits === !current.has(changed.id)) return current;
        const next = new Set(current);
        if (fits) next.delete(changed.id);
        else next.add(changed.id);
        return next;
      });
      setItems((current) => {
        const at = current.findIndex((c) => c.id === changed.id);
        if (at >= 0) {
          const before = current[at]!;
          // Kept (the page hides it while it does not fit): it may fit again, or be the one open.
          if (before.last_message_at === changed.last_message_at) return current.map((c) => (c.id === changed.id ? changed : c));
          return insertSorted(
            current.filter((c) => c.id !== changed.id),
            changed,
          );
        }
        if (!fits) return current;
        // Older than every row loaded while more pages exist: the walk brings it in its place.
        const last = current[current.length - 1];
        if (cursor && last && changed.last_message_at < last.last_message_at) return current;
        return insertSorted(current, changed);
      });
    },
    [cursor],
  );

  const refresh = useCallback(() => {
    // Still on the first page: read it afresh (a new snapshot, so synced chats page in too).
    if (itemsRef.current.length <= PAGE_SIZE) {
      void loadFirst(true);
      return;
    }
    // Deep in the list: only merge what is newest, so the reader keeps their place.
    const mine = generation.current;
    void fetchPage(null)
      .then(({ page }) => {
        if (mine !== generation.current) return;
        setItems((current) => {
          let next = current;
          for (const c of page) {
            const at = next.findIndex((x) => x.id === c.id);
            next =
              at >= 0 && next[at]!.last_message_at === c.last_message_at
                ? next.map((x) => (x.id === c.id ? c : x))
                : insertSorted(
                    next.filter((x) => x.id !== c.id),
                    c,
                  );
          }
          return next;
        });
        setHidden((current) => without(current, page));
      })
      .catch(() => undefined);
  }, [key, loadFirst]);

  return { items, hidden, error, loading, loadingMore, hasMore: cursor !== null, loadMore, apply, refresh };
}
