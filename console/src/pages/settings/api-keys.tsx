import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { ApiKey } from '../../api/types.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Badge, Button, Confirm, CopyButton, Empty, ErrorNote, Field, Loading, Select, Table, Time } from '../../ui/kit.js';

/** API keys for integrations: created with a scope, shown once, revoked at once. */
export function ApiKeysTab(): JSX.Element {
  const keys = useLoad(() => api.get<ApiKey[]>('/api/keys'), []);
  const [name, setName] = useState('');
  const [scope, setScope] = useState('write');
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const create = useAction(async () => {
    const key = await api.post<ApiKey>('/api/keys', { name, scope });
    setCreated(key);
    const { key: _secret, ...listed } = key;
    keys.set((list) => [listed, ...(list ?? [])]);
    setName('');
  });
  const revoke = useAction(async (key: ApiKey) => {
    await api.delete(`/api/keys/${key.id}`);
    keys.set((list) => list?.map((k) => (k.id === key.id ? { ...k, revoked_at: new Date().toISOString() } : k)));
    // A revoked key is worth nothing: its one-time "copy it now" panel goes too.
    setCreated((shown) => (shown?.id === key.id ? null : shown));
  });
  const list = keys.data ?? [];
  return (
    <div>
      <h2>API keys</h2>
      <p class="muted">
        Integrations send a key as <code>Authorization: Bearer pk_live_…</code>. Read keys may only read. Keys expire after 365 days; to rotate, create a new
        key, deploy it, then revoke the old one. Never put a key in browser or mobile code.
      </p>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          setCreated(null);
          void create.run();
        }}
      >
        <Field label="Name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="CRM sync" />
        <Select
          label="Scope"
          options={[
            ['write', 'Read and write'],
            ['read', 'Read only'],
          ]}
          value={scope}
          onChange={(e) => setScope(e.currentTarget.value)}
        />
        <Button type="submit" variant="primary" busy={create.busy}>
          Create key
        </Button>
      </form>
      <ErrorNote error={create.error} />
      {created?.key ? (
        <div class="note note-success secret" role="status">
          <p>
            <strong>Copy the key “{created.name}” now.</strong> It is shown this once; the service keeps only its hash.
          </p>
          <div class="secret-row">
            <code class="secret-value" data-secret="api-key">
              {created.key}
            </code>
            <CopyButton text={created.key} label="Copy key" />
          </div>
          <Button variant="link" onClick={() => setCreated(null)}>
            I have stored it: hide it
          </Button>
        </div>
      ) : null}
      <ErrorNote error={keys.error ?? revoke.error} />
      {keys.loading && !keys.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty title="No API keys yet." />
      ) : (
        <Table columns={['Name', 'Key', 'Scope', 'Last used', 'Expires']}>
          {list.map((k) => (
            <tr key={k.id} class={k.revoked_at ? 'revoked' : ''}>
              <td data-label="Name">{k.name}</td>
              <td data-label="Key">
                <code>{k.prefix}…</code>
              </td>
              <td data-label="Scope">{k.scope}</td>
              <td data-label="Last used">{k.last_used_at ? <Time value={k.last_used_at} relative /> : 'never'}</td>
              <td data-label="Expires">
                <Time value={k.expires_at} />
              </td>
              <td class="actions">
                {k.revoked_at ? (
                  <Badge kind="danger">revoked</Badge>
                ) : (
                  <Button variant="link" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {revoking ? (
        <Confirm
          title="Revoke this key?"
          confirmLabel="Revoke"
          busy={revoke.busy}
          error={revoke.error}
          onConfirm={() => revoke.run(revoking)}
          onClose={() => setRevoking(null)}
        >
          <p>
            “{revoking.name}” ({revoking.prefix}…) stops working at once, on every server. This cannot be undone.
          </p>
        </Confirm>
      ) : null}
    </div>
  );
}
