import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Invite, Member, Role } from '../../api/types.js';
import { useSession } from '../../session.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Button, Confirm, Empty, ErrorNote, Field, Loading, Notice, Select, Table, Time } from '../../ui/kit.js';

const ROLE_TEXT: Record<Role, string> = { owner: 'Owner', admin: 'Admin', agent: 'Agent' };

function roleOptions(isOwner: boolean): [string, string][] {
  return (isOwner ? (['owner', 'admin', 'agent'] as Role[]) : (['admin', 'agent'] as Role[])).map((r) => [r, ROLE_TEXT[r]]);
}

/** Members with their roles, and the invitations still waiting (owners and admins manage both). */
export function MembersTab(): JSX.Element {
  const { me, workspace, isAdmin } = useSession();
  const isOwner = workspace?.role === 'owner';
  const members = useLoad(() => api.get<Member[]>('/api/members'), []);
  const [removing, setRemoving] = useState<Member | null>(null);
  const changeRole = useAction(async (member: Member, role: string) => {
    const saved = await api.patch<Member>(`/api/members/${member.user_id}`, { role });
    members.set((list) => list?.map((m) => (m.user_id === member.user_id ? { ...m, ...saved } : m)));
  });
  const remove = useAction(async (member: Member) => {
    await api.delete(`/api/members/${member.user_id}`);
    members.set((list) => list?.filter((m) => m.user_id !== member.user_id));
  });

  return (
    <div>
      <h2>Members</h2>
      <ErrorNote error={members.error ?? changeRole.error} />
      {members.loading && !members.data ? (
        <Loading />
      ) : (
        <Table columns={['Name', 'Email', 'Role', 'Joined']}>
          {(members.data ?? []).map((m) => (
            <tr key={m.user_id}>
              <td data-label="Name">
                {m.name} {m.user_id === me?.user.id ? <span class="muted">(you)</span> : null}
              </td>
              <td data-label="Email">{m.email}</td>
              <td data-label="Role">
                {isAdmin && (isOwner || m.role !== 'owner') ? (
                  <select aria-label={`Role of ${m.name || m.email}`} value={m.role} onChange={(e) => void changeRole.run(m, e.currentTarget.value)}>
                    {roleOptions(isOwner).map(([value, text]) => (
                      <option key={value} value={value}>
                        {text}
                      </option>
                    ))}
                  </select>
                ) : (
                  ROLE_TEXT[m.role]
                )}
              </td>
              <td data-label="Joined">
                <Time value={m.joined_at} relative />
              </td>
              <td class="actions">
                {isAdmin && (isOwner || m.role !== 'owner') ? (
                  <Button variant="link" onClick={() => setRemoving(m)} aria-label={`Remove ${m.name || m.email}`}>
                    Remove
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {isAdmin ? <Invites isOwner={isOwner} /> : null}
      {removing ? (
        <Confirm
          title="Remove this member?"
          confirmLabel="Remove"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(removing)}
          onClose={() => setRemoving(null)}
        >
          <p>{removing.name || removing.email} loses access to this workspace at once. Their conversations become unassigned.</p>
        </Confirm>
      ) : null}
    </div>
  );
}

function Invites({ isOwner }: { isOwner: boolean }): JSX.Element {
  const invites = useLoad(() => api.get<Invite[]>('/api/invites'), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const [sent, setSent] = useState<string | null>(null);
  const invite = useAction(async () => {
    const created = await api.post<Invite>('/api/invites', { email, role });
    invites.set((list) => [created, ...(list ?? []).filter((i) => i.email.toLowerCase() !== created.email.toLowerCase())]);
    setSent(created.email);
    setEmail('');
  });
  const revoke = useAction(async (id: string) => {
    await api.delete(`/api/invites/${id}`);
    invites.set((list) => list?.filter((i) => i.id !== id));
  });
  const list = invites.data ?? [];
  return (
    <div>
      <h2>Invitations</h2>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          setSent(null);
          void invite.run();
        }}
      >
        <Field label="Email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Select label="Role" options={roleOptions(isOwner)} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)} />
        <Button type="submit" variant="primary" busy={invite.busy}>
          Invite
        </Button>
      </form>
      <ErrorNote error={invite.error ?? revoke.error ?? invites.error} />
      {sent ? <Notice kind="success">An invitation is on its way to {sent}. The link works for 7 days.</Notice> : null}
      {invites.loading && !invites.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty title="No pending invitations." />
      ) : (
        <ul class="list">
          {list.map((i) => (
            <li key={i.id} class="list-row">
              <span>
                {i.email} · {ROLE_TEXT[i.role]} · expires <Time value={i.expires_at} />
              </span>
              <Button variant="link" busy={revoke.busy} onClick={() => void revoke.run(i.id)} aria-label={`Revoke the invitation of ${i.email}`}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
