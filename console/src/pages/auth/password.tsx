import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { Link, navigate, usePlace } from '../../router.js';
import { useSession } from '../../session.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote, Field } from '../../ui/kit.js';
import { AuthFrame } from './auth-frame.js';

export function ForgotPasswordPage(): JSX.Element {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const send = useAction(async () => {
    await api.post('/api/auth/forgot-password', { email }, { quiet401: true });
    setSent(true);
  });
  return (
    <AuthFrame title="Reset your password">
      {sent ? (
        <p class="note note-success" role="status">
          If an account exists for {email}, a link to choose a new password is on its way. It works once, for one hour.
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void send.run();
          }}
        >
          <p>Enter the email address of your account and we will mail you a link to choose a new password.</p>
          <Field label="Email" type="email" autoComplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          <ErrorNote error={send.error} />
          <Button type="submit" variant="primary" busy={send.busy} class="btn-block">
            Send the link
          </Button>
        </form>
      )}
      <p class="auth-links">
        <Link href="/login">Back to sign in</Link>
      </p>
    </AuthFrame>
  );
}

/** The page of the mailed `/reset-password?token=…` link. */
export function ResetPasswordPage(): JSX.Element {
  const { query } = usePlace();
  const { signedOut } = useSession();
  const token = query.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useAction(async () => {
    await api.post('/api/auth/reset-password', { token, password }, { quiet401: true });
    // Every session of the account was revoked, this browser's too.
    signedOut();
    navigate('/login?reset=1', { replace: true });
  });
  return (
    <AuthFrame title="Choose a new password">
      {!token ? (
        <ErrorNote>This link has no token. Open the link from the mail exactly as it was sent.</ErrorNote>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (password !== repeat) return setMismatch(true);
            setMismatch(false);
            void reset.run();
          }}
        >
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={256}
            hint="At least 8 characters. Resetting signs you out everywhere."
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          <Field
            label="Repeat the new password"
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onInput={(e) => setRepeat(e.currentTarget.value)}
          />
          {mismatch ? <ErrorNote>The two passwords differ.</ErrorNote> : null}
          <ErrorNote error={reset.error} />
          {reset.error?.status === 400 ? (
            <p>
              <Link href="/forgot-password">Ask for a new link</Link>
            </p>
          ) : null}
          <Button type="submit" variant="primary" busy={reset.busy} class="btn-block">
            Set the new password
          </Button>
        </form>
      )}
    </AuthFrame>
  );
}
