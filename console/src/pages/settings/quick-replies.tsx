import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { QuickReply } from '../../api/team-types.js';
import { useSession } from '../../session.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Button, Confirm, Empty, ErrorNote, Field, FormDialog, Loading, Table, TextArea } from '../../ui/kit.js';

const PLACEHOLDERS = ['{{contact.name}}', '{{contact.phone}}', '{{agent.name}}', '{{conversation.name}}'];

/** Canned answers typed with `/shortcut` in the reply box; owners and admins manage them. */
export function QuickRepliesTab(): JSX.Element {
  const { isAdmin } = useSession();
  const replies = useLoad(() => api.get<QuickReply[]>('/api/quick-replies'), []);
  const [editing, setEditing] = useState<QuickReply | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QuickReply | null>(null);
  const remove = useAction(async (reply: QuickReply) => {
    await api.delete(`/api/quick-replies/${reply.id}`);
    replies.set((list) => list?.filter((r) => r.id !== reply.id));
    setDeleting(null);
  });
  const list = replies.data ?? [];
  return (
    <div>
      <div class="row">
        <h2>Quick replies</h2>
        {isAdmin ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New quick reply
          </Button>
        ) : null}
      </div>
      <p class="muted">
        Type <kbd>/</kbd> and the shortcut in the reply box to insert one. They may hold {PLACEHOLDERS.join(', ')}, filled in for the conversation.
      </p>
      <ErrorNote error={replies.error} />
      {replies.loading && !replies.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty title="No quick replies yet." />
      ) : (
        <Table columns={['Shortcut', 'Text']} label="Quick replies">
          {list.map((reply) => (
            <tr key={reply.id}>
              <td data-label="Shortcut">
                <code>/{reply.shortcut}</code>
              </td>
              <td data-label="Text" class="pre clamp">
                {reply.body}
              </td>
              <td class="actions">
                {isAdmin ? (
                  <>
                    <Button variant="link" aria-label={`Edit /${reply.shortcut}`} onClick={() => setEditing(reply)}>
                      Edit
                    </Button>
                    <Button variant="link" aria-label={`Delete /${reply.shortcut}`} onClick={() => setDeleting(reply)}>
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
        <QuickReplyForm
          reply={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) =>
            replies.set((current) => [...(current ?? []).filter((r) => r.id !== saved.id), saved].sort((a, b) => a.shortcut.localeCompare(b.shortcut)))
          }
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this quick reply?"
          confirmLabel="Delete"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>/{deleting.shortcut} is deleted.</p>
        </Confirm>
      ) : null}
    </div>
  );
}

function QuickReplyForm({ reply, onClose, onSaved }: { reply: QuickReply | null; onClose: () => void; onSaved: (r: QuickReply) => void }): JSX.Element {
  const [shortcut, setShortcut] = useState(reply?.shortcut ?? '');
  const [body, setBody] = useState(reply?.body ?? '');
  const save = useAction(async () => {
    const fields = { shortcut, body };
    onSaved(reply ? await api.patch<QuickReply>(`/api/quick-replies/${reply.id}`, fields) : await api.post<QuickReply>('/api/quick-replies', fields));
    onClose();
  });
  return (
    <FormDialog title={reply ? 'Edit quick reply' : 'New quick reply'} onClose={onClose} onSubmit={() => void save.run()} busy={save.busy} error={save.error}>
      <Field
        label="Shortcut"
        hint="Lowercase letters, digits, - and _ (up to 32); typed after /"
        required
        value={shortcut}
        onInput={(e) => setShortcut(e.currentTarget.value)}
      />
      <TextArea label="Text" required rows={6} maxLength={4096} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
      <p class="muted">
        Placeholders:{' '}
        {PLACEHOLDERS.map((p) => (
          <Button key={p} variant="link" onClick={() => setBody((current) => `${current}${p}`)}>
            {p}
          </Button>
        ))}
      </p>
    </FormDialog>
  );
}
