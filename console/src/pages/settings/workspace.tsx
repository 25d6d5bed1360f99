import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { useSession } from '../../session.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote, Field, Notice } from '../../ui/kit.js';

export function WorkspaceTab(): JSX.Element {
  const { workspace, isAdmin, refresh } = useSession();
  const [name, setName] = useState(workspace?.name ?? '');
  const [saved, setSaved] = useState(false);
  const rename = useAction(async () => {
    await api.patch('/api/workspace', { name });
    await refresh();
    setSaved(true);
  });
  return (
    <div class="card narrow">
      <h2>Workspace</h2>
      <dl class="facts">
        <dt>Workspace id</dt>
        <dd>
          <code>{workspace?.id}</code>
        </dd>
        <dt>Your role</dt>
        <dd>{workspace?.role}</dd>
        {workspace?.subscription_status ? (
          <>
            <dt>Subscription</dt>
            <dd>{workspace.subscription_status}</dd>
          </>
        ) : null}
      </dl>
      {isAdmin ? (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            setSaved(false);
            void rename.run();
          }}
        >
          <Field label="Name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <Button type="submit" variant="primary" busy={rename.busy}>
            Rename
          </Button>
        </form>
      ) : null}
      <ErrorNote error={rename.error} />
      {saved ? <Notice kind="success">The workspace is renamed.</Notice> : null}
    </div>
  );
}
