import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { afterSignIn } from '../../app.js';
import { Link, usePlace } from '../../router.js';
import { useSession } from '../../session.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote, Field } from '../../ui/kit.js';
import { AuthFrame, GoogleButton } from './auth-frame.js';

export function SignupPage(): JSX.Element {
  const { query } = usePlace();
  const { refresh } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signUp = useAction(async () => {
    await api.post('/api/auth/register', { name, email, password }, { quiet401: true });
    await refresh();
    const next = query.get('next');
    if (next) afterSignIn(query);
    else afterSignIn(new URLSearchParams({ next: '/workspaces' }));
  });
  const next = query.get('next');
  return (
    <AuthFrame title="Create your account">
      <GoogleButton />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void signUp.run();
        }}
      >
        <Field label="Your name" autoComplete="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Email" type="email" autoComplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={256}
          hint="At least 8 characters."
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <ErrorNote error={signUp.error} />
        <Button type="submit" variant="primary" busy={signUp.busy} class="btn-block">
          Create account
        </Button>
      </form>
      <p class="auth-links">
        <span>
          Already have an account? <Link href={`/login${next ? `?next=${encodeURIComponent(next)}` : ''}`}>Sign in</Link>
        </span>
      </p>
    </AuthFrame>
  );
}
