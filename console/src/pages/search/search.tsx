import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { Link, navigate, usePlace } from '../../router.js';
import { useAction, useDebounced, useLoad } from '../../ui/hooks.js';
import { Button, Empty, ErrorNote, Field, Loading, PageHeader, Time } from '../../ui/kit.js';
import type { SearchPage as Page, SearchResult, SearchResultType, SearchType } from './search-types.js';
import './search.css';

const TYPES: { id: SearchType; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'messages', label: 'Messages' },
  { id: 'notes', label: 'Notes' },
  { id: 'contacts', label: 'Contacts' },
];
// The groups a page of results is shown in, in this order; within a group, best first.
const GROUPS: { type: SearchResultType; title: string }[] = [
  { type: 'message', title: 'Messages' },
  { type: 'note', title: 'Private notes' },
  { type: 'contact', title: 'Contacts' },
];
const PAGE_SIZE = 20;

const typeOf = (raw: string | null): SearchType => (TYPES.some((t) => t.id === raw) ? (raw as SearchType) : 'all');

/**
 * Search: what the service finds for the words typed (GET /api/search), grouped by kind, the
 * matched words marked; a hit opens its conversation. The words and the kind live in the address
 * (`/search?q=…&type=…`), so a search can be reloaded, shared and gone back to.
 */
export function SearchPage(): JSX.Element {
  const { query } = usePlace();
  const q = query.get('q') ?? '';
  const type = typeOf(query.get('type'));
  const [text, setText] = useState(q);
  const typed = useDebounced(text.trim(), 300);
  // Another search opened from the header while this page shows: take its words.
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (typed !== q.trim()) navigate(addressOf(typed, type), { replace: true });
  }, [typed]);

  const [more, setMore] = useState<SearchResult[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const first = useLoad(async () => {
    setMore([]);
    if (!q.trim()) return null;
    const page = await api.get<Page>(`/api/search?${new URLSearchParams({ q: q.trim(), type, limit: String(PAGE_SIZE) })}`);
    setCursor(page.next_cursor);
    return page;
  }, [q, type]);
  const loadMore = useAction(async () => {
    if (!cursor) return;
    const page = await api.get<Page>(`/api/search?${new URLSearchParams({ q: q.trim(), type, limit: String(PAGE_SIZE), cursor })}`);
    setMore((current) => [...current, ...page.results]);
    setCursor(page.next_cursor);
  });
  const results = [...(first.data?.results ?? []), ...more];

  return (
    <section class="search-page">
      <PageHeader title="Search" />
      <form class="search-form" role="search" onSubmit={(event) => (event.preventDefault(), navigate(addressOf(text.trim(), type), { replace: true }))}>
        <Field
          label="Search messages, notes and contacts"
          type="search"
          value={text}
          maxLength={200}
          autoFocus
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </form>
      <nav class="tabs" aria-label="What to search">
        {TYPES.map((t) => (
          <Link key={t.id} href={addressOf(q.trim(), t.id)} aria-current={t.id === type ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      <ErrorNote error={first.error} />
      {!q.trim() ? (
        <Empty title="Type a few words to search.">Messages (text, captions and file names), private notes, and contacts by name or phone number.</Empty>
      ) : first.loading && !first.data ? (
        <Loading label="Searching…" />
      ) : results.length === 0 ? (
        <Empty title={`Nothing matches “${q.trim()}”.`}>Every word has to occur; the last one may be the start of a word.</Empty>
      ) : (
        <>
          {GROUPS.map((group) => {
            const hits = results.filter((r) => r.type === group.type);
            if (hits.length === 0) return null;
            return (
              <section class="search-group" key={group.type} aria-labelledby={`search-group-${group.type}`}>
                <h2 id={`search-group-${group.type}`}>
                  {group.title} <span class="muted">({hits.length})</span>
                </h2>
                <ul class="search-results">
                  {hits.map((hit) => (
                    <li key={`${hit.type}-${hit.id}`}>
                      <Hit hit={hit} />
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
          <ErrorNote error={loadMore.error} />
          {cursor ? (
            <Button busy={loadMore.busy} onClick={() => void loadMore.run()}>
              Show more results
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}

function addressOf(q: string, type: SearchType): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (type !== 'all') params.set('type', type);
  const search = params.toString();
  return search ? `/search?${search}` : '/search';
}

function Hit({ hit }: { hit: SearchResult }): JSX.Element {
  const body = (
    <>
      <span class="search-hit-head">
        <span>
          {hit.chat_name || <span class="muted">unknown chat</span>}
          {hit.type === 'note' ? <span class="search-note-badge">Private note</span> : null}
        </span>
        <Time value={hit.timestamp} relative />
      </span>
      <p class="search-snippet">
        <Marked text={hit.snippet} ranges={hit.highlights} />
      </p>
    </>
  );
  // A contact without a conversation the caller sees has nowhere to go.
  return hit.conversation_id ? (
    <Link class="search-hit" href={`/inbox/${hit.conversation_id}`}>
      {body}
    </Link>
  ) : (
    <div class="search-hit">{body}</div>
  );
}

/** `text` with the ranges marked (<mark>); ranges are in order and do not overlap. */
export function Marked({ text, ranges }: { text: string; ranges: [number, number][] }): JSX.Element {
  const parts: (string | JSX.Element)[] = [];
  let at = 0;
  ranges.forEach(([start, end], i) => {
    if (start < at || end > text.length) return;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={i}>{text.slice(start, end)}</mark>);
    at = end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}
