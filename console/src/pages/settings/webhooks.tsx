import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Webhook } from '../../api/types.js';
import { WEBHOOK_EVENTS } from '../../api/webhook-events.js';
import { Link } from '../../router.js';
import { upsert, useAction, useLoad } from '../../ui/hooks.js';
import { Badge, Button, Confirm, CopyButton, Empty, ErrorNote, Field, FormDialog, Loading, Time } from '../../ui/kit.js';
import { WebhookDeliveries } from './webhook-deliveries.js';

const EVENTS: [string, string][] = WEBHOOK_EVENTS.map(({ name, label }) => [name, `${name}: ${label}`]);
const DEFAULT_EVENTS = WEBHOOK_EVENTS.filter((event) => event.byDefault).map((event) => event.name);
// The webhook filters beyond the type: events of these channels' numbers only.
const CHANNELS: [string, string][] = [
  ['scan', 'scan: the QR-linked number'],
  ['meta', 'meta: the Cloud API number'],
];

/** Webhook endpoints, the signing secret, and (with an id) one endpoint's delivery log. */
export function WebhooksTab({ webhookId }: { webhookId?: string }): JSX.Element {
  const hooks = useLoad(() => api.get<Webhook[]>('/api/webhooks'), []);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const remove = useAction(async (hook: Webhook) => {
    await api.delete(`/api/webhooks/${hook.id}`);
    hooks.set((list) => list?.filter((h) => h.id !== hook.id));
  });
  if (hooks.error) return <ErrorNote error={hooks.error} />;
  if (hooks.loading && !hooks.data) return <Loading />;
  const list = hooks.data ?? [];
  const selected = webhookId ? list.find((h) => h.id === webhookId) : undefined;
  if (webhookId) {
    return selected ? <WebhookDeliveries webhook={selected} /> : <Empty title="This webhook does not exist (any more)." />;
  }
  return (
    <div>
      <div class="page-header">
        <h2>Webhooks</h2>
        <Button variant="primary" onClick={() => setEditing('new')} disabled={list.length >= 10}>
          Add webhook
        </Button>
      </div>
      <p class="muted">
        Each enabled endpoint (at most 10) receives the events it lists as signed JSON POSTs: <code>scan.chat</code> for every message to the number linked by
        QR code, <code>meta.chat</code> for the Cloud API's callbacks, and the opt-in ones you tick (receipts, edits, connection changes, …), limited to the
        channels chosen and, unless group chats are included, to one-to-one chats. Failed deliveries are retried for about a day. Verify{' '}
        <code>X-Hub-Signature-256</code> or the Standard Webhooks headers with the signing secret below.
      </p>
      <ErrorNote error={remove.error} />
      {list.length === 0 ? (
        <Empty title="No webhooks yet.">Add an endpoint to receive inbound messages as they arrive.</Empty>
      ) : (
        <ul class="cards">
          {list.map((h) => (
            <li key={h.id} class="card">
              <h3 class="break">{h.url}</h3>
              <p>
                {h.enabled ? <Badge kind="success">enabled</Badge> : <Badge kind="warning">disabled</Badge>}{' '}
                {h.events.map((e) => (
                  <Badge key={e}>{e}</Badge>
                ))}
              </p>
              {h.disabled_reason ? <p class="note note-warning">{h.disabled_reason}</p> : null}
              {h.failing_since && !h.disabled_reason ? (
                <p class="note note-warning">
                  Every delivery has failed since <Time value={h.failing_since} />.
                </p>
              ) : null}
              <p class="muted">
                Added <Time value={h.created_at} relative />
              </p>
              <div class="row">
                <Link href={`/settings/webhooks/${h.id}`} class="btn btn-secondary" aria-label={`Deliveries to ${h.url}`}>
                  Deliveries
                </Link>
                <Button variant="link" onClick={() => setEditing(h)} aria-label={`Edit the webhook to ${h.url}`}>
                  Edit
                </Button>
                <Button variant="link" onClick={() => setDeleting(h)} aria-label={`Delete the webhook to ${h.url}`}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <SigningSecret />
      {editing ? (
        <WebhookForm
          hook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => hooks.set((current) => upsert(current, saved, 'end'))}
        />
      ) : null}
      {deleting ? (
        <Confirm
          title="Delete this webhook?"
          confirmLabel="Delete"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p class="break">{deleting.url} stops receiving events, and its delivery log goes with it.</p>
        </Confirm>
      ) : null}
    </div>
  );
}

function WebhookForm({ hook, onClose, onSaved }: { hook: Webhook | null; onClose: () => void; onSaved: (h: Webhook) => void }): JSX.Element {
  const [url, setUrl] = useState(hook?.url ?? 'https://');
  const [events, setEvents] = useState<string[]>(hook?.events ?? DEFAULT_EVENTS);
  const [enabled, setEnabled] = useState(hook?.enabled ?? true);
  // null: every channel (the service's default); otherwise the ticked ones.
  const [channels, setChannels] = useState<string[] | null>(hook?.channels ?? null);
  const [includeGroups, setIncludeGroups] = useState(hook?.include_groups ?? true);
  const toggleChannel = (channel: string, on: boolean): void => {
    const current = channels ?? CHANNELS.map(([value]) => value);
    const next = on ? [...current, channel] : current.filter((x) => x !== channel);
    setChannels(next.length === CHANNELS.length ? null : next);
  };
  const save = useAction(async () => {
    const body = { url, events, enabled, channels, include_groups: includeGroups };
    onSaved(hook ? await api.patch<Webhook>(`/api/webhooks/${hook.id}`, body) : await api.post<Webhook>('/api/webhooks', body));
    onClose();
  });
  return (
    <FormDialog title={hook ? 'Edit webhook' : 'Add webhook'} onClose={onClose} onSubmit={() => void save.run()} busy={save.busy} error={save.error}>
      <Field label="Endpoint URL" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} hint={urlHint(url)} />
      <fieldset>
        <legend>Events</legend>
        {EVENTS.map(([value, text]) => (
          <div class="check" key={value}>
            <input
              id={`event-${value}`}
              type="checkbox"
              checked={events.includes(value)}
              onChange={(e) => setEvents(e.currentTarget.checked ? [...events, value] : events.filter((x) => x !== value))}
            />
            <label for={`event-${value}`}>{text}</label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>Channels</legend>
        {CHANNELS.map(([value, text]) => (
          <div class="check" key={value}>
            <input
              id={`channel-${value}`}
              type="checkbox"
              checked={channels === null || channels.includes(value)}
              onChange={(e) => toggleChannel(value, e.currentTarget.checked)}
            />
            <label for={`channel-${value}`}>{text}</label>
          </div>
        ))}
        <div class="check">
          <input id="webhook-include-groups" type="checkbox" checked={includeGroups} onChange={(e) => setIncludeGroups(e.currentTarget.checked)} />
          <label for="webhook-include-groups">Include group chats</label>
        </div>
      </fieldset>
      <div class="check">
        <input id="webhook-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <label for="webhook-enabled">Enabled</label>
      </div>
    </FormDialog>
  );
}

// The service never shows a URL's credentials: it answers `***` in their place, and keeps the
// stored one only when the form saves the URL back exactly as shown (another path or query
// with `***` is refused: it could hand the credential to someone else's endpoint).
const urlHint = (url: string): string =>
  url.includes('***@') || url.includes(':***')
    ? 'https:// on a public address. *** stands for the saved credential: leave the URL as it is to keep it; to change the URL, type the credential again.'
    : 'https:// on a public address. A user:password@ in it is sent as Basic auth and never shown again.';

/** The workspace's signing secret: hidden until asked for, rotatable after a confirmation. */
function SigningSecret(): JSX.Element {
  const [secret, setSecret] = useState<string | null>(null);
  const [rotating, setRotating] = useState(false);
  const reveal = useAction(async () => setSecret((await api.get<{ secret: string }>('/api/webhooks/secret')).secret));
  const rotate = useAction(async () => setSecret((await api.post<{ secret: string }>('/api/webhooks/secret/rotate')).secret));
  return (
    <div class="card">
      <h3>Signing secret</h3>
      <p class="muted">One secret for all the workspace's endpoints; keep it on the receiving side only.</p>
      <div class="secret-row">
        {secret ? (
          <>
            <code class="secret-value" data-secret="webhook-secret">
              {secret}
            </code>
            <CopyButton text={secret} label="Copy secret" />
            <Button variant="link" onClick={() => setSecret(null)}>
              Hide
            </Button>
          </>
        ) : (
          <Button busy={reveal.busy} onClick={() => void reveal.run()}>
            Reveal the secret
          </Button>
        )}
        <Button variant="danger" onClick={() => setRotating(true)}>
          Rotate
        </Button>
      </div>
      <ErrorNote error={reveal.error} />
      {rotating ? (
        <Confirm
          title="Rotate the signing secret?"
          confirmLabel="Rotate"
          busy={rotate.busy}
          error={rotate.error}
          onConfirm={() => rotate.run()}
          onClose={() => setRotating(false)}
        >
          <p>
            Deliveries are signed with the new secret from now on. For 24 hours the Standard Webhooks signature also carries one with the previous secret, so
            receivers keep accepting deliveries while you switch them over; <code>X-Hub-Signature-256</code> uses the new secret at once.
          </p>
        </Confirm>
      ) : null}
    </div>
  );
}
