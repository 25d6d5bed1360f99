import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Automation, Member, Template } from '../../api/types.js';
import { useSession } from '../../session.js';
import { upsert, useAction, useLoad } from '../../ui/hooks.js';
import { Badge, Button, Confirm, Empty, ErrorNote, Loading, PageHeader } from '../../ui/kit.js';
import { useLabels } from '../inbox/label-chips.js';
import { AutomationForm } from './automation-form.js';
import { describe } from './automation-vocabulary.js';

/** Rules that act on new messages and conversations; owners and admins edit them. */
export function AutomationsPage(): JSX.Element {
  const { isAdmin } = useSession();
  const automations = useLoad(() => api.get<Automation[]>('/api/automations'), []);
  const members = useLoad(() => api.get<Member[]>('/api/members'), []);
  const templates = useLoad(() => api.get<Template[]>('/api/templates').catch(() => [] as Template[]), []);
  const labels = useLabels();
  const [editing, setEditing] = useState<Automation | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Automation | null>(null);
  const toggle = useAction(async (a: Automation) => {
    const saved = await api.patch<Automation>(`/api/automations/${a.id}`, { enabled: !a.enabled });
    automations.set((list) => list?.map((x) => (x.id === saved.id ? saved : x)));
  });
  const remove = useAction(async (a: Automation) => {
    await api.delete(`/api/automations/${a.id}`);
    automations.set((list) => list?.filter((x) => x.id !== a.id));
  });
  const list = automations.data ?? [];
  return (
    <section>
      <PageHeader title="Automations">
        {isAdmin ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New automation
          </Button>
        ) : null}
      </PageHeader>
      <ErrorNote error={automations.error} />
      <ErrorNote error={toggle.error} />
      {automations.loading && !automations.data ? (
        <Loading />
      ) : automations.error ? null : list.length === 0 ? (
        <Empty title="No automations yet.">
          Automations reply, assign, label, set the status or mark read by themselves when a message matches. They never react to messages you send, and reply
          at most 5 times a minute per conversation.
        </Empty>
      ) : (
        <ul class="cards">
          {list.map((a) => (
            <li key={a.id} class="card">
              <h2>
                {a.name} {a.enabled ? <Badge kind="success">on</Badge> : <Badge>off</Badge>}
              </h2>
              <p>{describe(a)}</p>
              {isAdmin ? (
                <div class="row">
                  <Button variant="link" busy={toggle.busy} onClick={() => void toggle.run(a)} aria-label={`${a.enabled ? 'Turn off' : 'Turn on'} ${a.name}`}>
                    {a.enabled ? 'Turn off' : 'Turn on'}
                  </Button>
                  <Button variant="link" onClick={() => setEditing(a)} aria-label={`Edit ${a.name}`}>
                    Edit
                  </Button>
                  <Button variant="link" onClick={() => setDeleting(a)} aria-label={`Delete ${a.name}`}>
                    Delete
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <AutomationForm
          automation={editing === 'new' ? null : editing}
          members={members.data ?? []}
          templates={templates.data ?? []}
          labels={labels.data ?? []}
          onClose={() => setEditing(null)}
          onSaved={(saved) => automations.set((current) => upsert(current, saved))}
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this automation?"
          confirmLabel="Delete"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>“{deleting.name}” is deleted and stops acting at once.</p>
        </Confirm>
      ) : null}
    </section>
  );
}
