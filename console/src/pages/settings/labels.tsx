import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Label } from '../../api/team-types.js';
import { useSession } from '../../session.js';
import { useAction } from '../../ui/hooks.js';
import { Button, Confirm, Empty, ErrorNote, Field, FormDialog, Loading, Table } from '../../ui/kit.js';
import { LabelChip, useLabels } from '../inbox/label-chips.js';

const COLORS = ['#1f6feb', '#2da44e', '#d4a72c', '#d1242f', '#8250df', '#bf3989', '#0a7d8c', '#6e7781'];

/** The workspace's labels: owners and admins create, rename, recolour and delete them. */
export function LabelsTab(): JSX.Element {
  const { isAdmin } = useSession();
  const labels = useLabels();
  const [editing, setEditing] = useState<Label | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Label | null>(null);
  const remove = useAction(async (label: Label) => {
    await api.delete(`/api/labels/${label.id}`);
    labels.set((list) => list?.filter((l) => l.id !== label.id));
    setDeleting(null);
  });
  const list = labels.data ?? [];
  return (
    <div>
      <div class="row">
        <h2>Labels</h2>
        {isAdmin ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New label
          </Button>
        ) : null}
      </div>
      <p class="muted">Labels sort conversations and contacts (VIP, billing, …). Anyone on the team puts them on; owners and admins manage the list.</p>
      <ErrorNote error={labels.error} />
      {labels.loading && !labels.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty title="No labels yet." />
      ) : (
        <Table columns={['Label', 'Colour']} label="Labels">
          {list.map((label) => (
            <tr key={label.id}>
              <td data-label="Label">
                <LabelChip label={label} />
              </td>
              <td data-label="Colour">
                <code>{label.color}</code>
              </td>
              <td class="actions">
                {isAdmin ? (
                  <>
                    <Button variant="link" aria-label={`Edit ${label.name}`} onClick={() => setEditing(label)}>
                      Edit
                    </Button>
                    <Button variant="link" aria-label={`Delete ${label.name}`} onClick={() => setDeleting(label)}>
                      Delete
                    </Button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {editing ? (
        <LabelForm
          label={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) =>
            labels.set((current) =>
              [...(current ?? []).filter((l) => l.id !== saved.id), saved].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase())),
            )
          }
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this label?"
          confirmLabel="Delete"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>“{deleting.name}” comes off every conversation and contact that has it.</p>
        </Confirm>
      ) : null}
    </div>
  );
}

function LabelForm({ label, onClose, onSaved }: { label: Label | null; onClose: () => void; onSaved: (l: Label) => void }): JSX.Element {
  const [name, setName] = useState(label?.name ?? '');
  const [color, setColor] = useState(label?.color ?? COLORS[0]!);
  const save = useAction(async () => {
    const body = { name, color };
    onSaved(label ? await api.patch<Label>(`/api/labels/${label.id}`, body) : await api.post<Label>('/api/labels', body));
    onClose();
  });
  return (
    <FormDialog title={label ? 'Edit label' : 'New label'} onClose={onClose} onSubmit={() => void save.run()} busy={save.busy} error={save.error}>
      <Field label="Name" required maxLength={50} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <fieldset class="label-colors">
        <legend>Colour</legend>
        {COLORS.map((c) => (
          <label key={c} class="label-color">
            <input type="radio" name="label-color" value={c} checked={color === c} onChange={() => setColor(c)} />
            <span class="label-swatch" style={{ background: c }} />
            <span class="visually-hidden">{c}</span>
          </label>
        ))}
        <label class="label-color">
          <span>Other</span> <input type="color" aria-label="Other colour" value={color} onInput={(e) => setColor(e.currentTarget.value)} />
        </label>
      </fieldset>
      <p>
        Preview: <LabelChip label={{ id: '', name: name.trim() || 'Label', color, created_at: '' }} />
      </p>
    </FormDialog>
  );
}
