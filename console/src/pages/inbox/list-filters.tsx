import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client.js';
import type { ConversationCounts, ConversationStatus } from '../../api/types.js';
import { useLiveEvent } from '../../live.js';
import { useDebounced, useLoad } from '../../ui/hooks.js';
import type { AssigneeFilter, ChannelFilter, ListFilter } from './conversation-pages.js';

export const STATUS_TABS: [ConversationStatus, string][] = [
  ['open', 'Open'],
  ['pending', 'Pending'],
  ['snoozed', 'Snoozed'],
  ['closed', 'Closed'],
];

/** What the list filter needs of a label (`GET /api/labels`). */
interface LabelOption {
  id: string;
  name: string;
  color: string;
}

/**
 * The counts of `GET /api/conversations/counts?status=`, read again shortly after conversations
 * change (a burst of live events costs one request).
 */
function useCounts(status: ConversationStatus): ConversationCounts | undefined {
  const counts = useLoad(async () => ({ status, counts: await api.get<ConversationCounts>(`/api/conversations/counts?status=${status}`) }), [status]);
  const timer = useRef<number | undefined>(undefined);
  const later = (): void => {
    if (timer.current !== undefined) return;
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      void counts.reload();
    }, 400);
  };
  useLiveEvent('conversation.updated', later);
  useLiveEvent('sync.progress', later);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // Another status's figures (still shown while the new ones load) would mislead.
  return counts.error || counts.data?.status !== status ? undefined : counts.data.counts;
}

/** Labels to filter by; none while the server has no labels (an older server answers 404). */
function useLabels(): LabelOption[] {
  const labels = useLoad(async () => {
    try {
      return await api.get<LabelOption[]>('/api/labels');
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return [];
      throw error;
    }
  }, []);
  return labels.data ?? [];
}

const withCount = (text: string, n: number | undefined): string => (n === undefined ? text : `${text} (${n})`);

/**
 * The list's filters: a tab per status with its count, a name/phone search, assignee, label,
 * channel and unread. Counts other than the tabs' are within the chosen status.
 */
export function ListFilters({ filter, onChange }: { filter: ListFilter; onChange: (next: ListFilter) => void }): JSX.Element {
  const counts = useCounts(filter.status);
  const labels = useLabels();
  const [typed, setTyped] = useState(filter.q);
  const settled = useDebounced(typed, 300);
  const latest = useRef(filter);
  latest.current = filter;
  useEffect(() => {
    if (settled !== latest.current.q) onChange({ ...latest.current, q: settled });
  }, [settled]);
  // The filters cleared from outside ("Clear the filters"): the box follows.
  useEffect(() => {
    if (filter.q !== settled) setTyped(filter.q);
  }, [filter.q]);
  const set = (part: Partial<ListFilter>): void => onChange({ ...filter, ...part });
  const labelCount = (id: string): number | undefined => (counts ? (counts.labels.find((l) => l.label_id === id)?.count ?? 0) : undefined);

  return (
    <div class="list-filters">
      <div class="status-tabs" role="group" aria-label="Status">
        {STATUS_TABS.map(([value, text]) => (
          <button key={value} type="button" class="status-tab" aria-pressed={filter.status === value} onClick={() => set({ status: value })}>
            {text}
            {counts ? <span class="status-count">{counts.status[value]}</span> : null}
          </button>
        ))}
      </div>
      <label class="list-search">
        <span class="visually-hidden">Filter conversations by name or phone</span>
        <input type="search" placeholder="Filter by name or phone" value={typed} maxLength={200} onInput={(e) => setTyped(e.currentTarget.value)} />
      </label>
      <div class="filters" role="group" aria-label="Filter conversations">
        <label>
          <span class="visually-hidden">Assigned to</span>
          <select value={filter.assignee} onChange={(e) => set({ assignee: e.currentTarget.value as AssigneeFilter })}>
            <option value="all">{withCount("Everyone's", counts?.assignee.all)}</option>
            <option value="me">{withCount('Mine', counts?.assignee.mine)}</option>
            <option value="none">{withCount('Unassigned', counts?.assignee.unassigned)}</option>
          </select>
        </label>
        {labels.length > 0 ? (
          <label>
            <span class="visually-hidden">Label</span>
            <select value={filter.label} onChange={(e) => set({ label: e.currentTarget.value })}>
              <option value="">Any label</option>
              {labels.map((l) => (
                <option key={l.id} value={l.id}>
                  {withCount(l.name, labelCount(l.id))}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          <span class="visually-hidden">Channel</span>
          <select value={filter.channel} onChange={(e) => set({ channel: e.currentTarget.value as ChannelFilter })}>
            <option value="">All channels</option>
            <option value="scan">WhatsApp app</option>
            <option value="meta">Cloud API</option>
          </select>
        </label>
        <label class="unread-filter">
          <input type="checkbox" checked={filter.unread} onChange={(e) => set({ unread: e.currentTarget.checked })} />
          {withCount('Unread', counts?.unread)}
        </label>
      </div>
    </div>
  );
}
