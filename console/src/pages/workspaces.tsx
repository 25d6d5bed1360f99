import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { Workspace } from '../api/types.js';
import { navigate } from '../router.js';
import { useSession } from '../session.js';
import { useAction } from '../ui/hooks.js';
import { Badge, Button, Empty, ErrorNote, Field, PageHeader } from '../ui/kit.js';

/** Switch between the workspaces you belong to, and create one. */
export function WorkspacesPage(): JSX.Element {
  const { me, workspace, selectWorkspace, refresh } = useSession();
  const [name, setName] = useState('');
  const create = useAction(async () => {
    const created = await api.post<Workspace>('/api/workspaces', { name });
    await refresh();
    selectWorkspace(created.id);
    setName('');
    navigate('/');
  });
  const list = me?.workspaces ?? [];
  return (
    <section class="narrow">
      <PageHeader title="Workspaces" />
      {list.length === 0 ? (
        <Empty title="You are not in any workspace yet.">Create one below, or open the invitation link an admin mailed you.</Empty>
      ) : (
        <ul class="list">
          {list.map((w) => (
            <li key={w.id} class="list-row">
              <div>
                <strong>{w.name}</strong> <Badge>{w.role}</Badge> {w.id === workspace?.id ? <Badge kind="accent">current</Badge> : null}
              </div>
              <Button
                onClick={() => {
                  selectWorkspace(w.id);
                  navigate('/');
                }}
              >
                Open
              </Button>
            </li>
          ))}
        </ul>
      )}
      <h2>Create a workspace</h2>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <Field label="Workspace name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="Acme support" />
        <Button type="submit" variant="primary" busy={create.busy}>
          Create workspace
        </Button>
      </form>
      <ErrorNote error={create.error} />
    </section>
  );
}
