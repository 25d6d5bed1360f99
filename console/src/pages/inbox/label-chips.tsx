import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, type ApiError } from '../../api/client.js';
import type { Label } from '../../api/team-types.js';
import type { Conversation } from '../../api/types.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { ErrorNote } from '../../ui/kit.js';

/** The workspace's labels, by name. */
export function useLabels() {
  return useLoad(() => api.get<Label[]>('/api/labels'), []);
}

/** Dark text on light colours, white on dark ones: the chip stays readable whatever its colour. */
export function chipText(color: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.6 ? '#1f2933' : '#fff';
}

export function LabelChip({ label, subject, onRemove }: { label: Label; subject?: string; onRemove?: () => void }): JSX.Element {
  return (
    <span class="label-chip" style={{ background: label.color, color: chipText(label.color) }} data-label={label.name}>
      {label.name}
      {onRemove ? (
        <button type="button" aria-label={`Remove label ${label.name}${subject ? ` from ${subject}` : ''}`} title="Remove" onClick={onRemove}>
          ×
        </button>
      ) : null}
    </span>
  );
}

/** The conversation's labels as chips, each removable, and a menu to add one. */
export function LabelChips({ c, onChanged }: { c: Conversation; onChanged: (c: Conversation) => void }): JSX.Element {
  const labels = useLabels();
  return <LabelSet item={c} path={`/api/conversations/${c.id}/labels`} labels={labels.data ?? []} loadError={labels.error} onChanged={onChanged} />;
}

interface LabelSetProps<T extends { label_ids: string[] }> {
  item: T;
  /** `…/labels`: POST `{label_id}` adds, DELETE `…/labels/:labelId` removes; both answer the item. */
  path: string;
  /** The workspace's labels, loaded once by the page (a list of contacts shows many sets). */
  labels: Label[];
  loadError?: ApiError | null;
  /** Whose labels, when a page shows several sets: names the group and its buttons. */
  subject?: string;
  onChanged: (item: T) => void;
}

/** Any labelled item's chips (a conversation, a contact), each removable, and a menu to add one. */
export function LabelSet<T extends { label_ids: string[] }>({ item, path, labels: all, loadError, subject, onChanged }: LabelSetProps<T>): JSX.Element {
  const [adding, setAdding] = useState(false);
  const change = useAction(async (labelId: string, on: boolean) => {
    onChanged(on ? await api.post<T>(path, { label_id: labelId }) : await api.delete<T>(`${path}/${labelId}`));
    setAdding(false);
  });
  const byId = new Map(all.map((l) => [l.id, l]));
  const shown = item.label_ids.map((id) => byId.get(id)).filter((l): l is Label => Boolean(l));
  const addable = all.filter((l) => !item.label_ids.includes(l.id));
  return (
    <div class="label-chips" aria-label={subject ? `Labels of ${subject}` : 'Labels'}>
      {shown.map((label) => (
        <LabelChip key={label.id} label={label} subject={subject} onRemove={() => void change.run(label.id, false)} />
      ))}
      <span class="label-add">
        <button
          type="button"
          class="btn btn-link"
          aria-label={subject ? `Add a label to ${subject}` : undefined}
          aria-expanded={adding}
          aria-haspopup="listbox"
          onClick={() => setAdding(!adding)}
        >
          + Label
        </button>
        {adding ? (
          <ul class="composer-picker label-menu" role="listbox" aria-label="Add a label">
            {addable.length === 0 ? (
              <li class="muted">{all.length === 0 ? 'No labels yet: owners and admins create them in Settings → Labels.' : 'Every label is on.'}</li>
            ) : (
              addable.map((label) => (
                <li
                  key={label.id}
                  role="option"
                  aria-selected="false"
                  tabIndex={0}
                  onClick={() => void change.run(label.id, true)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      void change.run(label.id, true);
                    }
                    if (e.key === 'Escape') setAdding(false);
                  }}
                >
                  <span class="label-swatch" style={{ background: label.color }} /> {label.name}
                </li>
              ))
            )}
          </ul>
        ) : null}
      </span>
      <ErrorNote error={change.error ?? loadError} />
    </div>
  );
}
