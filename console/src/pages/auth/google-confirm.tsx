import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { navigate, Link } from '../../router.js';
import { useSession } from '../../session.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Button, ErrorNote, Loading } from '../../ui/kit.js';
import { AuthFrame } from './auth-frame.js';

/** Where Google's callback sends a new Google account: confirm the sign-up and accept the terms. */
export function GoogleConfirmPage(): JSX.Element {
  const { refresh } = useSession();
  const pending = useLoad(() => api.get<{ email: string; name: string }>('/api/auth/google/pending', { quiet401: true }), []);
  const [accepted, setAccepted] = useState(false);
  const confirm = useAction(async () => {
    await api.post('/api/auth/google/confirm', { accept_terms: true }, { quiet401: true });
    await refresh();
    // A linked account opens its workspace; a new one has none yet and is sent to create one.
    navigate('/', { replace: true });
  });
  return (
    <AuthFrame title="Create your account with Google">
      {pending.loading && !pending.data ? (
        <Loading />
      ) : pending.error ? (
        <>
          <ErrorNote error={pending.error} />
          <p>
            The Google sign-up may have expired. <Link href="/login">Start again</Link>
          </p>
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void confirm.run();
          }}
        >
          <dl class="facts">
            <dt>Name</dt>
            <dd>{pending.data?.name}</dd>
            <dt>Email</dt>
            <dd>{pending.data?.email}</dd>
          </dl>
          <p class="muted">An account with this verified address gets Google sign-in added to it; otherwise a new account is created.</p>
          <div class="check">
            <input id="accept-terms" type="checkbox" required checked={accepted} onChange={(e) => setAccepted(e.currentTarget.checked)} />
            <label for="accept-terms">I accept the terms of service and the privacy policy.</label>
          </div>
          <ErrorNote error={confirm.error} />
          <Button type="submit" variant="primary" class="btn-block" disabled={!accepted} busy={confirm.busy}>
            Create my account
          </Button>
          <p class="auth-links">
            <Link href="/login">Sign in another way</Link>
          </p>
        </form>
      )}
    </AuthFrame>
  );
}
