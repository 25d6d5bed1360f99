import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client.js';
import type { MetaSettings } from '../../api/types.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Badge, Button, Confirm, ErrorNote, Field, LoadError, Loading, Notice } from '../../ui/kit.js';
import { runEmbeddedSignup, type SignupConfig } from './embedded-signup.js';

/** A WhatsApp Cloud API number: guided signup with Meta when the platform is set up for it, or its ids and token by hand. */
export function CloudTab(): JSX.Element {
  const settings = useLoad(() => api.get<MetaSettings>('/api/meta/settings'), []);
  const config = useLoad(async () => {
    try {
      return await api.get<SignupConfig>('/api/meta/signup/config');
    } catch (error) {
      // 503: the platform's Meta app is not configured; the manual form still works.
      if (error instanceof ApiError && error.status === 503) return null;
      throw error;
    }
  }, []);
  const [phoneNumberId, setPhoneNumberId] = useState('');
  const [wabaId, setWabaId] = useState('');
  const [token, setToken] = useState('');
  const [removing, setRemoving] = useState(false);
  const [saved, setSaved] = useState(false);

  const save = useAction(async () => {
    settings.set(await api.put<MetaSettings>('/api/meta/settings', { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: token }));
    setToken('');
    setSaved(true);
  });
  const remove = useAction(async () => {
    await api.delete('/api/meta/settings');
    await settings.reload();
  });
  const signup = useAction(async () => {
    if (!config.data) return;
    settings.set(await runEmbeddedSignup(config.data));
    setSaved(true);
  });

  if (settings.error) return <LoadError error={settings.error} feature="Cloud API settings" />;
  if (settings.loading && !settings.data) return <Loading />;
  const s = settings.data;
  return (
    <div>
      <h2>WhatsApp Cloud API</h2>
      {s?.connected || s?.token_set ? (
        <div class="card">
          <p>
            {s.connected ? <Badge kind="success">connected</Badge> : <Badge kind="warning">not connected</Badge>}{' '}
            <strong>{s.display_phone_number ?? s.phone_number_id}</strong>
          </p>
          <dl class="facts">
            <dt>Phone number id</dt>
            <dd>{s.phone_number_id}</dd>
            <dt>WhatsApp Business Account id</dt>
            <dd>{s.waba_id}</dd>
            <dt>Access token</dt>
            <dd>{s.token_set ? 'stored (never shown)' : 'missing'}</dd>
          </dl>
          <Button variant="danger" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        </div>
      ) : null}
      {saved ? <Notice kind="success">The Cloud API number is saved.</Notice> : null}
      <div class="card">
        <h3>Guided signup</h3>
        {config.loading && !config.data ? (
          <Loading />
        ) : config.error ? (
          <LoadError error={config.error} feature="Guided signups" />
        ) : config.data ? (
          <>
            <p>Sign in with Facebook, choose or create the business account and the number; the service sets up the rest.</p>
            <Button variant="primary" busy={signup.busy} onClick={() => void signup.run()}>
              Connect with Meta
            </Button>
            {signup.busy ? <p class="muted">Finish the steps in Meta's window…</p> : null}
            <ErrorNote error={signup.error} />
          </>
        ) : (
          <p class="muted">Customer signup is awaiting platform configuration. Enter the number's details below instead.</p>
        )}
      </div>
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          void save.run();
        }}
      >
        <h3>{s?.token_set ? 'Replace the details' : 'Enter the details'}</h3>
        <Field label="Phone number id" required inputMode="numeric" value={phoneNumberId} onInput={(e) => setPhoneNumberId(e.currentTarget.value)} />
        <Field label="WhatsApp Business Account id" required inputMode="numeric" value={wabaId} onInput={(e) => setWabaId(e.currentTarget.value)} />
        <Field
          label="Access token"
          type="password"
          required
          autoComplete="off"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          hint="A system user token with whatsapp_business_messaging. It is checked with Meta before it is saved, and never shown again."
        />
        <ErrorNote error={save.error} />
        <Button type="submit" variant="primary" busy={save.busy}>
          Check and save
        </Button>
      </form>
      {removing ? (
        <Confirm title="Remove the Cloud API number?" confirmLabel="Remove" busy={remove.busy} error={remove.error} onConfirm={() => remove.run()} onClose={() => setRemoving(false)}>
          <p>Messages to this number stop arriving here. Conversations stay.</p>
        </Confirm>
      ) : null}
    </div>
  );
}
