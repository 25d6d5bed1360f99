import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { afterSignIn } from '../../app.js';
import { Link, usePlace } from '../../router.js';
import { useSession } from '../../session.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote, Field } from '../../ui/kit.js';
import { AuthFrame, googleFailure, GoogleButton } from './auth-frame.js';

export function LoginPage(): JSX.Element {
  const { query } = usePlace();
  const { refresh } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useAction(async () => {
    await api.post('/api/auth/login', { email, password }, { quiet401: true });
    await refresh();
    afterSignIn(query);
  });
  const google = googleFailure(query);
  const next = query.get('next');
  const keep = next ? `?next=${encodeURIComponent(next)}` : '';
  return (
    <AuthFrame title="Sign in">
      {google ? <ErrorNote>{google}</ErrorNote> : null}
      {query.get('reset') === '1' ? <p class="note note-success">Your password was changed. Sign in with the new one.</p> : null}
      <GoogleButton />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void signIn.run();
        }}
      >
        <Field label="Email" type="email" autoComplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <ErrorNote error={signIn.error} />
        <Button type="submit" variant="primary" busy={signIn.busy} class="btn-block">
          Sign in
        </Button>
      </form>
      <p class="auth-links">
        <Link href="/forgot-password">Forgot your password?</Link>
        <Link href={`/signup${keep}`}>Create an account</Link>
      </p>
    </AuthFrame>
  );
}
