import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { MetaSettings, Template } from '../../api/types.js';
import { useSession } from '../../session.js';
import { upsert, useAction, useLoad } from '../../ui/hooks.js';
import { Badge, Button, Confirm, EditDelete, Empty, ErrorNote, Field, FormDialog, Loading, Notice, PageHeader, Select, TextArea } from '../../ui/kit.js';

const CATEGORIES: [string, string][] = [
  ['UTILITY', 'Utility'],
  ['MARKETING', 'Marketing'],
  ['AUTHENTICATION', 'Authentication'],
];

/** The provider's review status as a colour: approved, refused or stopped, or still in review. */
function reviewKind(status: string): 'success' | 'danger' | 'warning' {
  if (status === 'APPROVED') return 'success';
  return ['REJECTED', 'DISABLED', 'PAUSED'].includes(status) ? 'danger' : 'warning';
}

/** Message templates: local ones for a scan number, the provider's for a Cloud API number. */
export function TemplatesPage(): JSX.Element {
  const { isAdmin } = useSession();
  const templates = useLoad(() => api.get<Template[]>('/api/templates'), []);
  // Only a Cloud API number has templates at the provider to sync (elsewhere the service answers 409).
  const cloud = useLoad(() => (isAdmin ? api.get<MetaSettings>('/api/meta/settings').catch(() => null) : Promise.resolve(null)), [isAdmin]);
  const providerManaged = Boolean(cloud.data?.phone_number_id);
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [synced, setSynced] = useState<string | null>(null);
  const remove = useAction(async (t: Template) => {
    await api.delete(`/api/templates/${t.id}`);
    templates.set((list) => list?.filter((x) => x.id !== t.id));
  });
  const sync = useAction(async () => {
    const result = await api.post<Template[]>('/api/templates/sync');
    await templates.reload();
    setSynced(`${result.length} ${result.length === 1 ? 'template' : 'templates'} synced from WhatsApp.`);
  });
  const list = templates.data ?? [];
  return (
    <section>
      <PageHeader title="Templates">
        {isAdmin ? (
          <>
            {providerManaged ? (
              <Button busy={sync.busy} onClick={() => void sync.run()}>
                Sync from WhatsApp
              </Button>
            ) : null}
            <Button variant="primary" onClick={() => setEditing('new')}>
              New template
            </Button>
          </>
        ) : null}
      </PageHeader>
      <ErrorNote error={sync.error} />
      {synced ? <Notice kind="success">{synced}</Notice> : null}
      <ErrorNote error={templates.error} />
      {templates.loading && !templates.data ? (
        <Loading />
      ) : templates.error ? null : list.length === 0 ? (
        <Empty title="No templates yet.">
          Templates are reusable messages with {'{{1}}'}-style placeholders.
          {providerManaged ? ' With a Cloud API number, new ones go to WhatsApp for review; sync to fetch those made elsewhere.' : null}
        </Empty>
      ) : (
        <ul class="cards">
          {list.map((t) => (
            <li key={t.id} class="card">
              <h2>
                {t.name} <Badge>{t.language}</Badge> <Badge>{t.category}</Badge> {t.status ? <Badge kind={reviewKind(t.status)}>{t.status}</Badge> : null}
              </h2>
              <p class="pre">{t.body}</p>
              {t.provider_id ? <p class="muted">Managed by WhatsApp: change it in WhatsApp Manager, then sync.</p> : null}
              {isAdmin ? <EditDelete what={t.name} onEdit={t.provider_id ? undefined : () => setEditing(t)} onDelete={() => setDeleting(t)} /> : null}
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <TemplateForm
          template={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => templates.set((current) => upsert(current, saved))}
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this template?"
          confirmLabel="Delete"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>
            {deleting.name} ({deleting.language}) is deleted{deleting.provider_id ? ' here and at WhatsApp' : ''}. Automations that reply with it stop replying.
          </p>
        </Confirm>
      ) : null}
    </section>
  );
}

function TemplateForm({ template, onClose, onSaved }: { template: Template | null; onClose: () => void; onSaved: (t: Template) => void }): JSX.Element {
  const [name, setName] = useState(template?.name ?? '');
  const [language, setLanguage] = useState(template?.language ?? 'en');
  const [category, setCategory] = useState(template?.category ?? 'UTILITY');
  const [body, setBody] = useState(template?.body ?? '');
  const save = useAction(async () => {
    const fields = { name, language, category, body };
    onSaved(template ? await api.patch<Template>(`/api/templates/${template.id}`, fields) : await api.post<Template>('/api/templates', fields));
    onClose();
  });
  return (
    <FormDialog title={template ? 'Edit template' : 'New template'} onClose={onClose} onSubmit={() => void save.run()} busy={save.busy} error={save.error}>
      <Field
        label="Name"
        required
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
        hint="Lower-case letters, digits and underscores, e.g. order_update."
      />
      <Field label="Language" required value={language} onInput={(e) => setLanguage(e.currentTarget.value)} hint="A language code such as en or de_DE." />
      <Select label="Category" options={CATEGORIES} value={category} onChange={(e) => setCategory(e.currentTarget.value)} />
      <TextArea
        label="Text"
        required
        rows={5}
        value={body}
        onInput={(e) => setBody(e.currentTarget.value)}
        hint="Use {{1}}, {{2}}, … for the parts filled in when it is sent."
      />
    </FormDialog>
  );
}
