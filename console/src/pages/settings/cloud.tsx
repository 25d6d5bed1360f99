import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, capitalise } from '../../api/client.js';
import type { MetaSettings } from '../../api/types.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Badge, Button, Confirm, ErrorNote, Field, Loading, Notice } from '../../ui/kit.js';
import { runEmbeddedSignup, type SignupConfig } from './embedded-signup.js';

/** Guided signup's config, or the service's reason (503) why the platform does not offer it yet. */
type SignupOffer = { config: SignupConfig } | { unavailable: string };

/** A WhatsApp Cloud API number: guided signup with Meta when the platform is set up for it, or its ids and token by hand. */
export function CloudTab(): JSX.Element {
  const settings = useLoad(() => api.get<MetaSettings>('/api/meta/settings'), []);
  const offer = useLoad(async (): Promise<SignupOffer> => {
    try {
      return { config: await api.get<SignupConfig>('/api/meta/signup/config') };
    } catch (error) {
      // 503: the platform's Meta app is not configured; the manual form still works.
      if (error instanceof ApiError && error.status === 503) return { unavailable: error.message };
      throw error;
    }
  }, []);
  const [removing, setRemoving] = useState(false);
  const [saved, setSaved] = useState(false);

  const remove = useAction(async () => {
    await api.delete('/api/meta/settings');
    setSaved(false);
    await settings.reload();
  });
  const signup = useAction(async () => {
    if (!offer.data || !('config' in offer.data)) return;
    settings.set(await runEmbeddedSignup(offer.data.config));
    setSaved(true);
  });

  if (settings.error) return <ErrorNote error={settings.error} />;
  if (settings.loading && !settings.data) return <Loading />;
  const s = settings.data;
  const configured = Boolean(s?.phone_number_id);
  return (
    <div class="narrow">
      <h2>WhatsApp Cloud API</h2>
      <p class="muted">A number on Meta's WhatsApp Cloud API, next to (or instead of) the number linked by QR code.</p>
      {saved ? <Notice kind="success">The Cloud API number is saved.</Notice> : null}
      {s && configured ? <NumberCard settings={s} onRemove={() => setRemoving(true)} /> : null}
      <div class="card">
        <h3>Guided signup</h3>
        {offer.loading && !offer.data ? (
          <Loading />
        ) : offer.error ? (
          <ErrorNote error={offer.error} />
        ) : offer.data && 'config' in offer.data ? (
          <>
            <p>Sign in with Facebook, choose or create the business account and the number; the service sets up the rest.</p>
            <Button variant="primary" busy={signup.busy} onClick={() => void signup.run()}>
              Connect with Meta
            </Button>
            {signup.busy ? <p class="muted">Finish the steps in Meta's window…</p> : null}
            <ErrorNote error={signup.error} />
          </>
        ) : (
          <p class="muted">{offer.data?.unavailable} Enter the number's details below instead.</p>
        )}
      </div>
      <ManualForm
        settings={s}
        onSaved={(next) => {
          settings.set(next);
          setSaved(true);
        }}
      />
      {removing ? (
        <Confirm
          title="Remove the Cloud API number?"
          confirmLabel="Remove"
          busy={remove.busy}
          error={remove.error}
          onConfirm={() => remove.run()}
          onClose={() => setRemoving(false)}
        >
          <p>Messages to this number stop arriving here. Conversations stay.</p>
        </Confirm>
      ) : null}
    </div>
  );
}

function NumberCard({ settings: s, onRemove }: { settings: MetaSettings; onRemove: () => void }): JSX.Element {
  return (
    <div class="card" data-cloud-number>
      <p>
        {s.connected ? <Badge kind="success">connected</Badge> : <Badge kind="danger">disconnected</Badge>}{' '}
        <strong>{s.display_phone_number || s.phone_number_id}</strong>
        {s.verified_name ? <span class="muted"> · {s.verified_name}</span> : null}
      </p>
      {!s.connected ? (
        <p class="note note-warning">
          {s.error ? `${capitalise(s.error)} ` : ''}Sends answer “chat is not connected” until the details are saved again with a valid token.
        </p>
      ) : null}
      <dl class="facts">
        <dt>Phone number id</dt>
        <dd>{s.phone_number_id}</dd>
        <dt>WhatsApp Business Account id</dt>
        <dd>{s.waba_id}</dd>
        <dt>Access token</dt>
        <dd>{s.token_set ? 'stored encrypted (never shown)' : 'missing'}</dd>
      </dl>
      <Button variant="danger" onClick={onRemove}>
        Remove
      </Button>
    </div>
  );
}

/** The ids and token by hand; with a number saved, an empty token keeps (and re-checks) the stored one. */
function ManualForm({ settings: s, onSaved }: { settings?: MetaSettings; onSaved: (settings: MetaSettings) => void }): JSX.Element {
  const [phoneNumberId, setPhoneNumberId] = useState('');
  const [wabaId, setWabaId] = useState('');
  const [token, setToken] = useState('');
  const keepsToken = Boolean(s?.token_set);
  useEffect(() => {
    setPhoneNumberId(s?.phone_number_id ?? '');
    setWabaId(s?.waba_id ?? '');
  }, [s?.phone_number_id, s?.waba_id]);
  const save = useAction(async () => {
    const body = { phone_number_id: phoneNumberId.trim(), waba_id: wabaId.trim(), ...(token.trim() ? { access_token: token.trim() } : {}) };
    onSaved(await api.put<MetaSettings>('/api/meta/settings', body));
    setToken('');
  });
  return (
    <form
      class="card"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h3>{s?.phone_number_id ? 'Change the details' : 'Enter the details'}</h3>
      <p class="muted">From WhatsApp Manager or the app's API Setup page. The service checks them with Meta before it saves them.</p>
      <Field label="Phone number id" required inputMode="numeric" value={phoneNumberId} onInput={(e) => setPhoneNumberId(e.currentTarget.value)} />
      <Field label="WhatsApp Business Account id" required inputMode="numeric" value={wabaId} onInput={(e) => setWabaId(e.currentTarget.value)} />
      <Field
        label="Access token"
        type="password"
        required={!keepsToken}
        autoComplete="off"
        value={token}
        onInput={(e) => setToken(e.currentTarget.value)}
        hint={
          keepsToken
            ? 'Leave empty to keep the stored token (it is checked again). A new one replaces it.'
            : 'A system user token with whatsapp_business_messaging and whatsapp_business_management. Stored encrypted, never shown again.'
        }
      />
      <ErrorNote error={save.error} />
      <Button type="submit" variant="primary" busy={save.busy}>
        Check and save
      </Button>
    </form>
  );
}
