import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { Contact } from '../api/types.js';
import { useLiveEvent } from '../live.js';
import { useAction, useDebounced, useLoad } from '../ui/hooks.js';
import { Button, Confirm, Empty, ErrorNote, Field, FormDialog, Loading, PageHeader, Table, Time } from '../ui/kit.js';
import { LabelSet, useLabels } from './inbox/label-chips.js';

/** Contacts: search by name or number, add, edit, label and delete; changes made elsewhere show up live. */
export function ContactsPage(): JSX.Element {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const contacts = useLoad(() => api.get<Contact[]>(`/api/contacts${q ? `?q=${encodeURIComponent(q)}` : ''}`), [q]);
  const labels = useLabels();
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const remove = useAction(async (contact: Contact) => {
    await api.delete(`/api/contacts/${contact.id}`);
    contacts.set((list) => list?.filter((c) => c.id !== contact.id));
  });
  // Another tab or an API client changed a contact. The unfiltered list takes it as it is; a
  // search asks the service again (only it knows whether the contact matches).
  const changed = (contact: Contact): void => {
    if (q) void contacts.reload();
    else
      contacts.set((current) =>
        current?.some((c) => c.id === contact.id) ? current.map((c) => (c.id === contact.id ? contact : c)) : [contact, ...(current ?? [])],
      );
  };
  useLiveEvent<Contact>('contact.created', changed);
  useLiveEvent<Contact>('contact.updated', changed);
  useLiveEvent<{ id: string }>('contact.deleted', ({ id }) => contacts.set((current) => current?.filter((c) => c.id !== id)));
  const list = contacts.data ?? [];
  return (
    <section>
      <PageHeader title="Contacts">
        <Button variant="primary" onClick={() => setEditing('new')}>
          Add contact
        </Button>
      </PageHeader>
      <div class="search">
        <Field label="Search by name or number" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </div>
      <ErrorNote error={contacts.error} />
      <ErrorNote error={labels.error} />
      {contacts.loading && !contacts.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty title={q ? `No contact matches “${q}”.` : 'No contacts yet.'}>People who write to your number are added here by themselves.</Empty>
      ) : (
        <Table columns={['Name', 'Phone', 'Labels', 'Added']}>
          {list.map((c) => (
            <tr key={c.id}>
              <td data-label="Name">{c.name || <span class="muted">no name</span>}</td>
              <td data-label="Phone">{c.phone ? `+${c.phone}` : <span class="muted">LID {c.lid}</span>}</td>
              <td data-label="Labels">
                <LabelSet
                  item={c}
                  path={`/api/contacts/${c.id}/labels`}
                  labels={labels.data ?? []}
                  subject={c.name || (c.phone ? `+${c.phone}` : `LID ${c.lid}`)}
                  onChanged={(saved) => contacts.set((current) => current?.map((x) => (x.id === saved.id ? saved : x)))}
                />
              </td>
              <td data-label="Added">
                <Time value={c.created_at} relative />
              </td>
              <td class="actions">
                <Button variant="link" onClick={() => setEditing(c)} aria-label={`Edit ${c.name || c.phone}`}>
                  Edit
                </Button>
                <Button variant="link" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name || c.phone}`}>
                  Delete
                </Button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {editing ? (
        <ContactForm
          contact={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => contacts.set((current) => [saved, ...(current ?? []).filter((c) => c.id !== saved.id)])}
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this contact?"
          confirmLabel="Delete"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>{deleting.name || `+${deleting.phone}`} is deleted. Conversations with them stay; the next message creates the contact again.</p>
        </Confirm>
      ) : null}
    </section>
  );
}

function ContactForm({ contact, onClose, onSaved }: { contact: Contact | null; onClose: () => void; onSaved: (c: Contact) => void }): JSX.Element {
  const [phone, setPhone] = useState(contact?.phone ? `+${contact.phone}` : '');
  const [name, setName] = useState(contact?.name ?? '');
  const save = useAction(async () => {
    const saved = contact
      ? await api.patch<Contact>(`/api/contacts/${contact.id}`, { name: name.trim() || null, ...(phone.trim() ? { phone } : {}) })
      : await api.post<Contact>('/api/contacts', { phone, name: name.trim() || undefined });
    onSaved(saved);
    onClose();
  });
  return (
    <FormDialog title={contact ? 'Edit contact' : 'Add contact'} onClose={onClose} onSubmit={() => void save.run()} busy={save.busy} error={save.error}>
      <Field
        label="Phone number"
        type="tel"
        required={!contact}
        value={phone}
        onInput={(e) => setPhone(e.currentTarget.value)}
        placeholder="+49 151 23456789"
      />
      <Field label="Name" value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
    </FormDialog>
  );
}
